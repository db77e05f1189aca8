import { withoutCode } from "../parse/code.js";

/**
 * What a prompt says in the user's own words, two ways that differ on purpose (each is measured as it is: keyword
 * modes by test/unit/prompt.test.ts, the scorer by `npm run relevance`, whose figures move when one stands in for the
 * other; fresh-r12's reach falls from 0.53 to 0.48 with proseOf as the scorer's):
 * - proseOf, for keyword modes: a mode word must be the user's own, so everything else goes (code, host reminders,
 *   URLs, any word holding a slash or backslash);
 * - withoutPaths, for the scorer's likely tier: only forward-slash paths go (a token ends at quotes and brackets
 *   too); code and reminders stay, as they were when the frozen scorer's figures were measured.
 */

/**
 * The prose of a prompt: what the user wrote in their own words. Code fences, inline code,
 * `<system-reminder>` blocks (which hosts inject), URLs and paths are blanked out, so a mode keyword or a
 * topic word inside them never counts.
 */
export function proseOf(prompt: string): string {
  // A pattern is run only where its text can be: each costs a compile (0.1–0.3 ms) on every hook call.
  const reminders = prompt.toLowerCase().includes("<system-reminder>") ? prompt.replace(/<system-reminder>[\s\S]*?(<\/system-reminder>|$)/gi, " ") : prompt;
  const prose = withoutCode(reminders);
  const urlless = prose.includes("://") ? prose.replace(/\S+/g, (word) => (word.includes("://") ? withoutUrl(word) : word)) : prose;
  return urlless.includes("/") || urlless.includes("\\") ? urlless.replace(/(?:^|\s)\S+[\\/]\S*/g, " ") : urlless;
}

const isSchemeChar = (c: number): boolean => (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122) || c === 43 || c === 45 || c === 46;
const isWordChar = (c: number): boolean => (c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 122) || c === 95;

/**
 * A word cut where a URL starts (`\b[a-z][a-z0-9+.-]*:\/\/\S+`, case-blind), and a space for the URL. As a pattern it
 * went back over a long word from each of its characters; here each `://` looks back over its scheme once.
 */
function withoutUrl(word: string): string {
  // `\S+`: a URL has something after its `://`.
  for (let colon = word.indexOf("://"); colon !== -1 && colon + 3 < word.length; colon = word.indexOf("://", colon + 1)) {
    let from = colon;
    while (from > 0 && isSchemeChar(word.charCodeAt(from - 1))) from--;
    for (let at = from; at < colon; at++) {
      const c = word.charCodeAt(at);
      if ((c | 32) >= 97 && (c | 32) <= 122 && (at === 0 || !isWordChar(word.charCodeAt(at - 1)))) return `${word.slice(0, at)} `;
    }
  }
  return word;
}

/** A prompt without the paths in it: what the user said in words (the likely tier needs some of it). */
export function withoutPaths(text: string): string {
  // Whole tokens, then a look for the slash in each: a pattern around the slash went back over a long word from each
  // of its characters (quadratic in a 40,000-character word).
  return text.includes("/") ? text.replace(/[^\s`'"()<>]+/g, (token) => (token.includes("/") ? " " : token)) : text;
}
