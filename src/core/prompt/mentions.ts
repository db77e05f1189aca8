/** What a prompt points at: file paths (checked against the disk by the caller) and `@rule` names. */

/*
 * Path-like words: `[A-Za-z0-9_./@+-]*[A-Za-z0-9_@+-](?:\/[A-Za-z0-9_.@+-]+)+` (a word with a `/`) or
 * `[A-Za-z0-9_@+-][A-Za-z0-9_.@+-]*\.[A-Za-z0-9]{1,10}` (a name with an extension). As a pattern it went back over a
 * long word once per character (one word of 40,000 characters in a prompt: 4 s); pathTokens finds the same tokens
 * in one pass or two over each word.
 */
const WORD = /[A-Za-z0-9_./@+-]+/g;
const isAlnum = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** A character a path's segment may end with before a `/`: any of WORD's but `.` and `/`. */
const isSegmentEnd = (c: number): boolean => isAlnum(c) || c === 95 || c === 64 || c === 43 || c === 45;
/** Any of WORD's characters but `/`. */
const isSegmentChar = (c: number): boolean => isSegmentEnd(c) || c === 46;

/** The path-like tokens of a prompt, in order: what the patterns above match, leftmost first, each as long as it can be. */
export function pathTokens(text: string): string[] {
  const out: string[] = [];
  for (const [word] of text.matchAll(WORD)) tokensOfWord(word, out);
  return out;
}

/**
 * Every match lies inside one word (the patterns hold none of the characters around it). The first pattern matches
 * from the word's start through its last `x/y`, then as many `/segment`s as follow; past it, the second from a
 * segment's first possible character to the last `.ext` before the next `/` (none there: none for any later start
 * before that `/` either).
 */
function tokensOfWord(word: string, out: string[]): void {
  let at = 0;
  let last = -1;
  for (let i = word.length - 3; i >= 0; i--) {
    if (word.charCodeAt(i + 1) === 47 && isSegmentEnd(word.charCodeAt(i)) && isSegmentChar(word.charCodeAt(i + 2))) {
      last = i;
      break;
    }
  }
  if (last !== -1) {
    let end = last + 1;
    while (word.charCodeAt(end) === 47 && isSegmentChar(word.charCodeAt(end + 1))) for (end += 2; isSegmentChar(word.charCodeAt(end)); ) end++;
    out.push(word.slice(0, end));
    at = end;
  }
  while (at < word.length) {
    if (!isSegmentEnd(word.charCodeAt(at))) {
      at++;
      continue;
    }
    let stop = at + 1;
    while (isSegmentChar(word.charCodeAt(stop))) stop++;
    let dot = -1;
    for (let i = stop - 2; i > at; i--) {
      if (word.charCodeAt(i) === 46 && isAlnum(word.charCodeAt(i + 1))) {
        dot = i;
        break;
      }
    }
    if (dot === -1) {
      at = stop;
      continue;
    }
    let end = dot + 1;
    while (end < dot + 11 && isAlnum(word.charCodeAt(end))) end++;
    out.push(word.slice(at, end));
    at = end;
  }
}

/**
 * Path-like words of the prompt (with a `/`, or a name with an extension), cleaned of quotes, trailing
 * punctuation and `:line` suffixes. Code spans count: people write paths in backticks.
 */
export function pathMentions(prompt: string): string[] {
  const out = new Set<string>();
  // Each pattern below compiles on its first use, on every prompt: those a text cannot need are not run.
  const text = prompt.toLowerCase().includes("<system-reminder>") ? prompt.replace(/<system-reminder>[\s\S]*?(<\/system-reminder>|$)/gi, " ") : prompt;
  for (const raw of pathTokens(text)) {
    if (raw.startsWith("//") || (raw.includes("://") && /^[a-z][a-z0-9+.-]*:\/\//i.test(raw))) continue;
    // `@src/x.ts` is Claude Code's own file mention: the file it names is a target like a bare path.
    let path = raw.startsWith("@") ? raw.replace(/^@(?=[\w.])/, "") : raw;
    if (path.startsWith("./")) path = path.slice(2);
    // Trimmed by hand: `/[.]+$/` went back over every run of dots in the word.
    path = trimEnd(path, 46);
    if (path.includes(":")) path = path.replace(/:\d+(?::\d+)?$/, "");
    if (raw.startsWith("@") && !path.includes("/") && !/\.[A-Za-z0-9]{1,10}$/.test(path)) continue;
    if (/^v?\d+(\.\d+)+$/i.test(path)) continue; // version numbers
    path = trimEnd(path, 47);
    if (path !== "" && !path.split("/").includes("..")) out.add(path);
  }
  return [...out];
}

function trimEnd(text: string, code: number): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === code) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `@name` mentions that may name a manual rule (not e-mail addresses, not `@scope/package`). */
export function ruleMentions(prompt: string): string[] {
  const out = new Set<string>();
  // The name whole: `@testing-library/react` is a package, not `@testing` (the match used to give back to a `-`).
  for (const m of prompt.matchAll(/(?<![\w.@/])@([A-Za-z0-9][\w.-]*[A-Za-z0-9]|[A-Za-z0-9])(?![\w/@-]|\.\w)/g)) out.add(m[1]!);
  return [...out];
}
