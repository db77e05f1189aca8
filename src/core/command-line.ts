import { usageError } from "./errors.js";

/**
 * A command line for a host to run (a hook's `command`), quoted for the shell that runs it on `platform`.
 *
 * POSIX: `sh -c` runs it; a word that needs quoting gets single quotes.
 *
 * Windows: the host may hand it to cmd.exe, PowerShell or Git Bash, and no quoting means the same in all three
 * except double quotes around a word with none of `"`, `%` (cmd expands it even inside quotes), `$` and `` ` ``
 * (PowerShell expands and escapes inside double quotes); such a path is refused. Backslashes become `/` (Node and
 * Windows take either, and Git Bash would read `\\` in double quotes as one). A `.js`/`.cjs`/`.mjs` program does
 * not run by itself on Windows, so `node` runs it.
 */
export function commandLine(platform: string, program: string, args: readonly string[]): string {
  if (platform !== "win32") return [program, ...args].map(posixWord).join(" ");
  const rest = args.map(windowsWord);
  if (/\.[cm]?js$/i.test(program)) return ["node", quoted(program), ...rest].join(" ");
  // PowerShell reads a line that starts with a quoted string as a value, not a command (it would need `&`, which
  // cmd.exe reads as "and then"): a program to quote cannot come first.
  if (!WINDOWS_PLAIN.test(program)) throw usageError(`${program}: a program whose path needs quotes cannot be run the same by cmd.exe and PowerShell`);
  return [program, ...rest].join(" ");
}

const PLAIN = /^[\w./@+:-]+$/;
/** Without `@`, which starts a splat in PowerShell. */
const WINDOWS_PLAIN = /^[\w./+:-]+$/;

function posixWord(word: string): string {
  return PLAIN.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function windowsWord(word: string): string {
  return WINDOWS_PLAIN.test(word) ? word : quoted(word);
}

function quoted(word: string): string {
  const slashed = word.replace(/\\/g, "/");
  if (/["%$`\r\n]/.test(slashed)) throw usageError(`${word}: a path with ", %, $, \` or a line break cannot be quoted the same for cmd.exe and PowerShell; install ctxinject in a folder without them`);
  return `"${slashed}"`;
}
