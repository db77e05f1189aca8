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

/**
 * How a host lets a hook command reach the project folder: a variable it sets to it, the folder it runs hooks in
 * (the one its project settings sit in), or neither (it runs them where the session started, maybe below).
 */
export type ProjectDirAccess = { variable: string } | "cwd" | "none";

export interface HookCommandRequest {
  agent: string;
  /** The host's name, for the reason. */
  hostName: string;
  platform: string;
  /** The settings are the project's, which a team commits: no path of this machine may go in. */
  forProject: boolean;
  projectDir: ProjectDirAccess;
  /** The project's own install (node_modules/.bin/ctxinject) is there. */
  localInstall: boolean;
  /** The PATH folder that holds a ctxinject, or null. */
  onPath: string | null;
  /** This very executable, its real path (no node_modules/.bin link): only a user's own settings may name it. */
  self: string;
}

export interface HookCommandChoice {
  command: string;
  /** Why this form, for init to say. */
  why: string;
}

/**
 * The command a host runs for `hook <agent>`. A user's own settings name this executable by its real path, run by
 * `node` (it stays on this machine, and runs in every project: a name resolved there, through PATH or a
 * project's node_modules, would run whatever ctxinject the next repository ships). A project's settings go to every clone, so they name ctxinject in a way each machine
 * resolves by itself: the project's install through the project folder, else the name on PATH, else npx (which
 * finds an install in the folder it runs in or above, or a global one). cmd.exe reads `node_modules/.bin/x` as a
 * command with a switch, and no variable syntax works in cmd.exe, PowerShell and Git Bash alike, so on Windows a
 * project's install is reached through npx.
 */
export function chooseHookCommand(request: HookCommandRequest): HookCommandChoice {
  const { agent, hostName, platform, projectDir } = request;
  const args = ["hook", agent];
  if (!request.forProject) return { command: commandLine(platform, "node", [request.self, ...args]), why: "user settings run in every project, so they name this ctxinject by its real path, nothing a project's node_modules could stand in for" };
  const npx = commandLine(platform, "npx", ["--no-install", "ctxinject", ...args]);
  if (request.localInstall) {
    const installed = "ctxinject is installed in this project (node_modules/.bin/ctxinject)";
    if (platform === "win32") return { command: npx, why: `${installed}; on Windows npx finds it from cmd.exe, PowerShell and Git Bash alike` };
    if (projectDir === "cwd") return { command: `node_modules/.bin/ctxinject ${args.join(" ")}`, why: `${installed} and ${hostName} runs hooks in the project folder` };
    if (projectDir !== "none") return { command: `"$${projectDir.variable}"/node_modules/.bin/ctxinject ${args.join(" ")}`, why: `${installed} and ${hostName} sets $${projectDir.variable} to the project folder` };
    return { command: npx, why: `${installed}, but ${hostName} runs hooks in the folder it was started in, which may be below the project: npx finds the install from there` };
  }
  if (request.onPath !== null) return { command: commandLine(platform, "ctxinject", args), why: `ctxinject is not installed in this project but is on PATH (${request.onPath})` };
  return { command: npx, why: "ctxinject is neither installed in this project nor on PATH (a one-off npx run?): the hook works once it is, e.g. `npm install --save-dev ctxinject`" };
}
