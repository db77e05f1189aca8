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
  if (/["%$`\r\n]/.test(slashed))
    throw usageError(
      `${word}: a path with ", %, $, \` or a line break cannot be quoted the same for cmd.exe and PowerShell; install ctxinject in a folder without them`,
    );
  return `"${slashed}"`;
}

/**
 * How a host lets a hook command reach the project folder: a variable it sets to it, the folder it runs hooks in
 * (the one its project settings sit in), or neither (it runs them where the session started, maybe below).
 */
export type ProjectDirAccess = { variable: string } | "cwd" | "none";

/**
 * How a project reaches its own ctxinject, as its package manager lays it out: a `node_modules/.bin/ctxinject` (npm,
 * yarn classic, pnpm, bun), `bin` being its path from the project folder (`../../node_modules/.bin/ctxinject` for
 * a package of a workspace installed at the workspace's root); or, under Yarn Plug'n'Play (no node_modules), the
 * dependency `yarn` runs. `manager` names the layout, for init to say.
 */
export type ProjectInstall = { bin: string; manager: string } | { runner: "yarn"; manager: string };

export interface HookCommandRequest {
  agent: string;
  /** The host's name, for the reason. */
  hostName: string;
  platform: string;
  /** The settings are the project's, which a team commits (a user's own are written for every project). */
  forProject: boolean;
  projectDir: ProjectDirAccess;
  /** The project's own install, or null. */
  install: ProjectInstall | null;
  /** This very executable, its real path (no node_modules/.bin link). */
  self: string;
}

export interface HookCommandChoice {
  command: string;
  /** Why this form, for init to say. */
  why: string;
}

/**
 * The command a host runs for `hook <agent>`: one that runs where it is written. A user's own settings name this
 * executable by its real path, run by `node` (they run in every project: a name resolved there, through PATH or a
 * project's node_modules, would run whatever ctxinject the next repository ships). A project's settings name the
 * project's own install, through the project folder (every clone that installs its dependencies has it); a project
 * without one gets this executable's path too: a name left to resolve later (npx, PATH) fails on every prompt where
 * nothing answers it (`npm error 404`), and doctor says when a path no longer runs. cmd.exe reads
 * `node_modules/.bin/x` as a command with a switch, and no variable syntax works in cmd.exe, PowerShell and Git Bash
 * alike, so on Windows a project's install is reached through npx.
 */
export function chooseHookCommand(request: HookCommandRequest): HookCommandChoice {
  const { agent, hostName, platform, projectDir, install } = request;
  const args = ["hook", agent];
  const self = commandLine(platform, "node", [request.self, ...args]);
  if (!request.forProject)
    return {
      command: self,
      why: "user settings run in every project, so they name this ctxinject by its real path, nothing a project's node_modules could stand in for",
    };
  if (install === null)
    return {
      command: self,
      why: `ctxinject is not installed in this project, so the hook runs the ctxinject you ran, by its path on this machine (another machine runs \`ctxinject init --${agent}\` again, or the project installs ctxinject: \`npm install --save-dev ctxinject\`, then init names that)`,
    };
  if ("runner" in install)
    return {
      command: commandLine(platform, "yarn", ["ctxinject", ...args]),
      why: `ctxinject is a dependency of this project under ${install.manager} (no node_modules): yarn runs it from the project folder or any folder below`,
    };
  const npx = commandLine(platform, "npx", ["--no-install", "ctxinject", ...args]);
  const installed = `ctxinject is installed in this project (${install.bin}, ${install.manager})`;
  if (platform === "win32") return { command: npx, why: `${installed}; on Windows npx finds it from cmd.exe, PowerShell and Git Bash alike` };
  const bin = install.bin
    .split("/")
    .map((part) => commandLine(platform, part, []))
    .join("/");
  if (projectDir === "cwd") return { command: `${bin} ${args.join(" ")}`, why: `${installed} and ${hostName} runs hooks in the project folder` };
  if (projectDir !== "none")
    return {
      command: `"$${projectDir.variable}"/${bin} ${args.join(" ")}`,
      why: `${installed} and ${hostName} sets $${projectDir.variable} to the project folder`,
    };
  return {
    command: npx,
    why: `${installed}, but ${hostName} runs hooks in the folder it was started in, which may be below the project: npx finds the install from there`,
  };
}

/**
 * The words of a hook command as the shell that runs it reads them (core of POSIX sh: quotes, backslashes, `$NAME`
 * and `${NAME}` from `vars`), for doctor to find its program; null for a line it cannot judge (a pipe, `;`, `&&`,
 * a substitution, a variable it is not given).
 */
export function commandWords(line: string, platform: string, vars: Readonly<Record<string, string>>): string[] | null {
  if (/[;|&<>`()\r\n]|\$\(/.test(line)) return null;
  const words: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word = (word ?? "") + c;
      continue;
    }
    if (c === "$") {
      const name = /^\{(\w+)\}|^(\w+)/.exec(line.slice(i + 1));
      const key = name?.[1] ?? name?.[2];
      if (key === undefined || vars[key] === undefined) return null;
      word = (word ?? "") + vars[key];
      i += name![0].length;
      continue;
    }
    if (c === '"') {
      quote = quote === '"' ? null : '"';
      word ??= "";
      continue;
    }
    if (quote === null && c === "'" && platform !== "win32") {
      quote = "'";
      word ??= "";
      continue;
    }
    if (c === "\\" && platform !== "win32" && i + 1 < line.length) {
      word = (word ?? "") + line[++i];
      continue;
    }
    if (quote === null && (c === " " || c === "\t")) {
      if (word !== null) words.push(word);
      word = null;
      continue;
    }
    word = (word ?? "") + c;
  }
  if (quote !== null) return null;
  if (word !== null) words.push(word);
  return words;
}
