import { isAscii } from "./tokens.js";

/**
 * Characters a person reviewing an instruction file does not see and a model reads: the "rules file backdoor".
 * Unicode tag characters spell out hidden ASCII, bidirectional controls reorder what is shown (Trojan Source),
 * zero-width and other invisible format characters hide words inside words. They are removed from what ctxinject
 * prints, and each file that held some is named with the line, column and code points.
 *
 * Kept, because text needs them: a zero-width joiner or non-joiner that is not between two ASCII letters or digits
 * (emoji sequences, Persian and Indic scripts), the tag sequence of a subdivision flag (🏴 + tags + cancel tag), the
 * left-to-right and right-to-left marks of right-to-left text, and a byte order mark at the very start (removed
 * with the frontmatter's normalisation anyway).
 */

export interface HiddenCharacters {
  /** 1-based line and column (in UTF-16 units, as editors count) of the first one. */
  line: number;
  column: number;
  /** Distinct code points found, as U+XXXX, in order of first appearance. */
  codePoints: string[];
  count: number;
}

/**
 * One scan says whether a text needs a closer look; nearly every file has none of these. All of them lie outside
 * ASCII, which a native count rules out first for most files.
 */
const ANY = /[\u00AD\u034F\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200D\u202A-\u202E\u2060-\u2064\u2066-\u2069\u206A-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]|\uDB40[\uDC00-\uDC7F]|\uD834[\uDD73-\uDD7A]/;

const ALWAYS = /[\u00AD\u034F\u115F\u1160\u17B4\u17B5\u180E\u200B\u202A-\u202E\u2060-\u2064\u2066-\u2069\u206A-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]|\uD834[\uDD73-\uDD7A]/u;
const isAsciiWord = (code: number | undefined) => code !== undefined && ((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122));
const BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;
const isTag = (code: number) => code >= 0xe0000 && code <= 0xe007f;

/** The text without its hidden characters, and where they were; null when it had none. */
export function stripHidden(text: string): { text: string; found: HiddenCharacters } | null {
  if (isAscii(text) || !ANY.test(text)) return null;
  const chars = Array.from(text);
  const kept: string[] = [];
  const codePoints: string[] = [];
  let count = 0;
  let first = -1;
  let offset = 0;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const code = ch.codePointAt(0)!;
    let hidden = false;
    if (code === 0xfeff && offset === 0) hidden = false;
    else if (ALWAYS.test(ch)) hidden = true;
    else if (code === 0x200c || code === 0x200d) hidden = isAsciiWord(chars[i - 1]?.codePointAt(0)) && isAsciiWord(chars[i + 1]?.codePointAt(0));
    else if (isTag(code)) {
      // A subdivision flag: the black flag, tag letters, the cancel tag. Kept whole; any other tag is hidden.
      let end = i;
      while (end < chars.length && isTag(chars[end]!.codePointAt(0)!) && chars[end]!.codePointAt(0) !== CANCEL_TAG) end++;
      const flag = chars[i - 1]?.codePointAt(0) === BLACK_FLAG && end > i && chars[end]?.codePointAt(0) === CANCEL_TAG;
      if (flag) {
        for (; i <= end; i++) {
          kept.push(chars[i]!);
          offset += chars[i]!.length;
        }
        i--;
        continue;
      }
      hidden = true;
    }
    if (hidden) {
      count++;
      if (first === -1) first = offset;
      const name = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
      if (!codePoints.includes(name)) codePoints.push(name);
    } else kept.push(ch);
    offset += ch.length;
  }
  if (count === 0) return null;
  const before = text.slice(0, first);
  const line = before.split("\n").length;
  const column = first - before.lastIndexOf("\n");
  return { text: kept.join(""), found: { line, column, codePoints, count } };
}

/** "41 hidden characters (U+E0049, …), the first at column 35". */
export function describeHidden(found: HiddenCharacters): string {
  const shown = found.codePoints.length > 6 ? `${found.codePoints.slice(0, 6).join(", ")}…` : found.codePoints.join(", ");
  return `${found.count} hidden character${found.count === 1 ? "" : "s"} (${shown}), the first at column ${found.column}`;
}

/** The warning for a file that held hidden characters. */
export function hiddenMessage(found: HiddenCharacters): string {
  return `${describeHidden(found).replace(" (", " removed (")} (config hiddenCharacters: "keep" keeps them)`;
}
