/** What a prompt points at: file paths (checked against the disk by the caller) and `@rule` names. */

const PATH_TOKEN = /[A-Za-z0-9_./@+-]*[A-Za-z0-9_@+-](?:\/[A-Za-z0-9_.@+-]+)+|[A-Za-z0-9_@+-][A-Za-z0-9_.@+-]*\.[A-Za-z0-9]{1,10}/g;

/**
 * Path-like words of the prompt (with a `/`, or a name with an extension), cleaned of quotes, trailing
 * punctuation and `:line` suffixes. Code spans count: people write paths in backticks.
 */
export function pathMentions(prompt: string): string[] {
  const out = new Set<string>();
  // Each pattern below compiles on its first use, on every prompt: those a text cannot need are not run.
  const text = prompt.toLowerCase().includes("<system-reminder>") ? prompt.replace(/<system-reminder>[\s\S]*?(<\/system-reminder>|$)/gi, " ") : prompt;
  for (const raw of text.match(PATH_TOKEN) ?? []) {
    if (raw.startsWith("//") || (raw.includes("://") && /^[a-z][a-z0-9+.-]*:\/\//i.test(raw))) continue;
    // `@src/x.ts` is Claude Code's own file mention: the file it names is a target like a bare path.
    let path = raw.startsWith("@") ? raw.replace(/^@(?=[\w.])/, "") : raw;
    if (path.startsWith("./")) path = path.slice(2);
    if (path.endsWith(".")) path = path.replace(/[.]+$/, "");
    if (path.includes(":")) path = path.replace(/:\d+(?::\d+)?$/, "");
    if (raw.startsWith("@") && !path.includes("/") && !/\.[A-Za-z0-9]{1,10}$/.test(path)) continue;
    if (/^v?\d+(\.\d+)+$/i.test(path)) continue; // version numbers
    path = path.replace(/\/+$/, "");
    if (path !== "" && !path.split("/").includes("..")) out.add(path);
  }
  return [...out];
}

/** `@name` mentions that may name a manual rule (not e-mail addresses, not `@scope/package`). */
export function ruleMentions(prompt: string): string[] {
  const out = new Set<string>();
  for (const m of prompt.matchAll(/(?<![\w.@/])@([A-Za-z0-9][\w.-]*[A-Za-z0-9]|[A-Za-z0-9])(?![\w/@])/g)) out.add(m[1]!);
  return [...out];
}
