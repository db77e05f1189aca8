import { lazyConstant } from "./lazy-constant.js";
import { isAscii } from "./tokens.js";

/**
 * Characters a person reviewing an instruction file does not see and a model reads: the "rules file backdoor".
 * Unicode tag characters spell out hidden ASCII, bidirectional controls reorder what is shown (Trojan Source),
 * zero-width and other invisible format characters hide words inside words, and runs of variation selectors carry
 * arbitrary bytes (one selector per byte: 16 + 240 of them) — the whole of Unicode's Default_Ignorable_Code_Point,
 * its unassigned code points included. C0 and C1 controls (but tab, line feed and carriage return) and terminal
 * escape sequences, taken whole (`ESC[8m` conceals what follows on a terminal, OSC 52 writes the clipboard), go
 * too. They are removed from what ctxinject prints, and each file that held some is named with the line, column and
 * code points. core/text-gate.ts applies this with redaction to every text from a repository.
 *
 * Kept, because text needs them: a zero-width joiner or non-joiner that is not between two ASCII letters or digits
 * (emoji sequences, Persian and Indic scripts); the tag sequences of the three subdivision flags Unicode recommends
 * (England, Scotland, Wales: 🏴 + tag letters + cancel tag; any other tag sequence, a "flag" included, is a hiding
 * place, since no font draws it and a model reads its letters); one variation selector after a character it can
 * vary (VS15/VS16 after an emoji or a keycap digit, VS1-14 after a symbol, an ideographic selector after a CJK
 * ideograph, a Mongolian free variation selector after a Mongolian letter), never two in a row; the left-to-right,
 * right-to-left and Arabic letter marks of right-to-left text; a byte order mark at the very start (removed with the
 * frontmatter's normalisation anyway). A vertical tab or form feed alone is stray (an old editor's page break).
 */

export interface HiddenCharacters {
  /** 1-based line and column (in UTF-16 units, as editors count) of the first one. */
  line: number;
  column: number;
  /** Distinct code points found, as U+XXXX, in order of first appearance. */
  codePoints: string[];
  count: number;
  /**
   * Every one is a lone zero-width space, word joiner, zero-width no-break space, soft hyphen or Mongolian vowel
   * separator standing outside a word (not between two letters or digits of any script, no other invisible
   * character beside it): a stray left by an editor or a copy from the web (`prose\u200B.`). It hides no word
   * and changes none, so a build removes it without a word and doctor calls it a warning. Tag runs, bidi
   * controls, selector runs and zero-width characters inside words are never stray.
   */
  stray: boolean;
}

/** Two scans' findings as one: the first one's place, each code point once in order of first appearance. */
export function mergeHidden(a: HiddenCharacters, b: HiddenCharacters): HiddenCharacters {
  return {
    ...a,
    codePoints: [...new Set([...a.codePoints, ...b.codePoints])],
    count: a.count + b.count,
    stray: a.stray && b.stray,
  };
}

/**
 * Two scans say whether a text needs a closer look; nearly every file has none of these. CONTROLS (C0 and C1 but
 * the tab, line feed and carriage return; DEL) runs on every text; the invisible ones all lie outside ASCII, which
 * a native count rules out first for most files. One class holding both ranges scans a two-byte string ten times
 * slower than the two apart (measured: 85 ms against 17 on 4 MB). (VS16 is common in READMEs with emoji: those files
 * take the closer look and keep it.)
 */
const CONTROLS = /[\0-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]/;
/** Unicode's Default_Ignorable_Code_Point, but the bidi marks (U+061C, U+200E, U+200F), and the interlinear annotations. */
const INVISIBLE =
  /[\u00AD\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200D\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFFB]|[\uDB40-\uDB43][\uDC00-\uDFFF]|\uD834[\uDD73-\uDD7A]|\uD82F[\uDCA0-\uDCA3]/;
/** Whether `text` holds a character stripHidden removes (or keeps only in its place: an emoji's selector, a flag's tags). */
export const mayHoldHidden = (text: string): boolean => CONTROLS.test(text) || (!isAscii(text) && INVISIBLE.test(text));

/** Always hidden wherever they stand (one code point at a time). The escape sequences are taken whole first. */
const ALWAYS =
  /[\0-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\u00AD\u034F\u115F\u1160\u17B4\u17B5\u180E\u200B\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF0-\uFFFB\u{1D173}-\u{1D17A}\u{1BCA0}-\u{1BCA3}\u{E0080}-\u{E00FF}\u{E01F0}-\u{E0FFF}]/u;
const isAsciiWord = (code: number | undefined) =>
  code !== undefined && ((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122));
/** The invisible characters that may be stray (HiddenCharacters.stray). */
const STRAY: ReadonlySet<number> = new Set([0x00ad, 0x180e, 0x200b, 0x2060, 0xfeff, 0x0b, 0x0c]);
// Made on first use (only a text with a zero-width character asks): a literal with Unicode property classes is
// built where it stands, ~0.5 ms of every start for a question most runs never ask.
const word = lazyConstant(() => /[\p{L}\p{N}\p{M}]/u);
const BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;
const isTag = (code: number) => code >= 0xe0000 && code <= 0xe007f;
/** The tag letters of the subdivision flags Unicode recommends for general interchange (RGI): gbeng, gbsct, gbwls. */
const RGI_SUBDIVISIONS: ReadonlySet<string> = new Set(["gbeng", "gbsct", "gbwls"]);
const isEmojiSelector = (code: number) => code === 0xfe0e || code === 0xfe0f;
const isMongolianSelector = (code: number) => (code >= 0x180b && code <= 0x180d) || code === 0x180f;
const isSelector = (code: number) => (code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xe0100 && code <= 0xe01ef) || isMongolianSelector(code);
const isIdeograph = (code: number) => (code >= 0x3400 && code <= 0x9fff) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0x20000 && code <= 0x3ffff);

/**
 * Whether one variation selector may follow `base` (the code point kept just before it; -1 at the start): the
 * emoji selectors after anything outside ASCII letters and spaces (emoji, symbols, a keycap's digit, # or *), the
 * standardised ones after a symbol or a digit, the ideographic ones after an ideograph.
 */
function selectorFits(selector: number, base: number): boolean {
  if (base < 0) return false;
  if (selector >= 0xe0100) return isIdeograph(base);
  if (isMongolianSelector(selector)) return base >= 0x1820 && base <= 0x18aa;
  if (base < 0x80) return (base >= 48 && base <= 57) || (isEmojiSelector(selector) && (base === 35 || base === 42));
  return !isSelector(base) && !isTag(base) && base !== 0x200d;
}

/** The text without its hidden characters, and where they were; null when it had none. */
export function stripHidden(text: string): { text: string; found: HiddenCharacters } | null {
  if (!mayHoldHidden(text)) return null;
  const chars = Array.from(text);
  const kept: string[] = [];
  const codePoints: string[] = [];
  let count = 0;
  let first = -1;
  let offset = 0;
  let stray = true;
  const hide = (code: number, at: number) => {
    count++;
    if (first === -1) first = at;
    const name = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
    if (!codePoints.includes(name)) codePoints.push(name);
  };
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const code = ch.codePointAt(0)!;
    let hidden = false;
    if (code === 0xfeff && offset === 0) hidden = false;
    else if (code === ESC || code === CSI || STRING_C1.has(code)) {
      // A terminal's escape sequence goes whole (`ESC[8m`, an OSC 52 clipboard write with its payload), not only its
      // first character: what is left of it would be noise at best, the concealed text or the payload at worst.
      stray = false;
      const end = sequenceEnd(chars, i);
      hide(code, offset);
      count += end - i - 1;
      for (; i < end; i++) offset += chars[i]!.length;
      i--;
      continue;
    } else if (isSelector(code)) {
      // A run of two or more is data, whatever precedes it: the whole run goes.
      let end = i + 1;
      while (end < chars.length && isSelector(chars[end]!.codePointAt(0)!)) end++;
      const base = kept.length === 0 ? -1 : kept[kept.length - 1]!.codePointAt(0)!;
      if (end - i === 1 && selectorFits(code, base)) hidden = false;
      else {
        stray = false;
        for (; i < end; i++) {
          hide(chars[i]!.codePointAt(0)!, offset);
          offset += chars[i]!.length;
        }
        i--;
        continue;
      }
    } else if (ALWAYS.test(ch)) {
      hidden = true;
      if (stray) stray = STRAY.has(code) && isStray(chars[i - 1], chars[i + 1]);
    } else if (code === 0x200c || code === 0x200d) {
      hidden = isAsciiWord(chars[i - 1]?.codePointAt(0)) && isAsciiWord(chars[i + 1]?.codePointAt(0));
      if (hidden) stray = false;
    } else if (isTag(code)) {
      // A tag run up to and with its cancel tag: kept only as one of the three RGI subdivision flags.
      let end = i;
      while (end < chars.length && isTag(chars[end]!.codePointAt(0)!) && chars[end]!.codePointAt(0) !== CANCEL_TAG) end++;
      const cancelled = chars[end]?.codePointAt(0) === CANCEL_TAG;
      const letters = chars
        .slice(i, end)
        .map((c) => String.fromCharCode(c.codePointAt(0)! - 0xe0000))
        .join("");
      const flag = kept[kept.length - 1]?.codePointAt(0) === BLACK_FLAG && cancelled && RGI_SUBDIVISIONS.has(letters);
      const last = cancelled ? end : end - 1;
      if (!flag) stray = false;
      for (; i <= last; i++) {
        if (flag) kept.push(chars[i]!);
        else hide(chars[i]!.codePointAt(0)!, offset);
        offset += chars[i]!.length;
      }
      i--;
      continue;
    }
    if (hidden) hide(code, offset);
    else kept.push(ch);
    offset += ch.length;
  }
  if (count === 0) return null;
  const before = text.slice(0, first);
  const line = before.split("\n").length;
  const column = first - before.lastIndexOf("\n");
  const out = kept.join("");
  // What was removed may leave a character next to what it can no longer stand beside (a joiner between two
  // letters once the space between went, two selectors once the letter between went): the text is gated again
  // until nothing goes, so that gating twice is gating once.
  const again = stripHidden(out);
  const found = { line, column, codePoints, count, stray };
  return again === null ? { text: out, found } : { text: again.text, found: mergeHidden(found, again.found) };
}

const ESC = 0x1b;
const BEL = 0x07;
const CSI = 0x9b;
/** Introducers of a control string (OSC, DCS, SOS, PM, APC), which runs to its terminator. */
const STRING_INTRODUCERS = "]PX^_";
const STRING_C1: ReadonlySet<number> = new Set([0x90, 0x98, 0x9d, 0x9e, 0x9f]);
const codeAt = (chars: readonly string[], i: number) => chars[i]?.codePointAt(0) ?? -1;

/**
 * Where the escape sequence starting at `i` (ESC or a C1 introducer) ends, as ECMA-48 frames it: a CSI's
 * parameters, intermediates and final byte; a control string up to BEL or ST, or the end of its line (a terminal
 * would swallow the rest, a line is enough to take the payload); any other ESC with its intermediates and final.
 * One pass forward: linear whatever the text.
 */
function sequenceEnd(chars: readonly string[], i: number): number {
  const first = codeAt(chars, i);
  let j = i + 1;
  let kind: "csi" | "string" | "other" | "single";
  if (first === ESC) {
    const next = chars[j];
    if (next === "[") (kind = "csi"), j++;
    else if (next !== undefined && STRING_INTRODUCERS.includes(next)) (kind = "string"), j++;
    else kind = "other";
  } else kind = first === CSI ? "csi" : STRING_C1.has(first) ? "string" : "single";
  if (kind === "single") return j;
  if (kind === "string") {
    for (; j < chars.length; j++) {
      const c = codeAt(chars, j);
      if (c === BEL || c === 0x9c) return j + 1;
      if (c === ESC) return chars[j + 1] === "\\" ? j + 2 : j;
      if (c === 10) return j;
    }
    return j;
  }
  if (kind === "csi") while (codeAt(chars, j) >= 0x30 && codeAt(chars, j) <= 0x3f) j++;
  while (codeAt(chars, j) >= 0x20 && codeAt(chars, j) <= 0x2f) j++;
  const final = codeAt(chars, j);
  return final >= (kind === "csi" ? 0x40 : 0x30) && final <= 0x7e ? j + 1 : j;
}

/** Whether a possibly stray character between `before` and `after` is one: outside a word, alone. */
function isStray(before: string | undefined, after: string | undefined): boolean {
  if ((before !== undefined && mayHoldHidden(before)) || (after !== undefined && mayHoldHidden(after))) return false;
  return !(before !== undefined && after !== undefined && word().test(before) && word().test(after));
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
