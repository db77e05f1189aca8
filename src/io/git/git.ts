import { usageError } from "../../core/errors.js";
import { spawnSync } from "../lazy-node.js";

/**
 * Every git process ctxinject starts goes through this module. A repository's own config (`.git/config`, the files it
 * includes, `.git/config.worktree`) is as untrusted as its files, and git runs programs that config names even for
 * read-only commands: `core.fsmonitor` on every index read (ls-files, diff), a filter driver's clean command on a
 * stat-dirty file while `git diff` compares the work tree, the `post-index-change` hook when that diff refreshes the
 * index, and a promisor remote's transport (`core.sshCommand`, `remote.*.uploadpack`, `ext::`) when an object is
 * missing. So git is started with options that come after, and win over, every config file:
 */
const GUARDS = [
  // A pager only runs on a terminal, and git's stdout here is a pipe; said anyway so that no config decides it.
  "--no-pager",
  "-c",
  "core.fsmonitor=false",
  // A lazy fetch from a promisor remote runs a transport; `protocol.<name>.allow` in the repository's config would
  // win over `protocol.allow`, so each built-in transport is named too.
  "-c",
  "protocol.allow=never",
  ...["ext", "fd", "file", "git", "ssh", "http", "https", "ftp", "ftps"].flatMap((name) => ["-c", `protocol.${name}.allow=never`]),
  // Paths as they are (no C-style quoting of bytes outside ASCII).
  "-c",
  "core.quotepath=off",
];
/** No hooks: a path that cannot be a folder (`/dev/null/<hook>` fails with ENOTDIR). */
const NO_HOOKS = ["-c", "core.hooksPath=/dev/null"];
/** Options of `git diff` that keep diff.external and textconv programs out even where a format would ask for them. */
const DIFF_GUARDS = ["--no-ext-diff", "--no-textconv", "--ignore-submodules=all"];

/** The environment of the run that asks (the hook server answers each hook in the environment that hook had). */
export type GitEnvironment = Readonly<Record<string, string | undefined>>;

/**
 * The run's environment, then lazy fetching switched off (git 2.39.4 and later), which also stops a remote helper
 * the repository's config names. GIT_CONFIG_* variables the user set are theirs and pass through. Made per call,
 * never kept: a process answers runs of other environments one after another (the hook server, in-process tests).
 */
const environment = (env: GitEnvironment): NodeJS.ProcessEnv => ({ ...env, GIT_NO_LAZY_FETCH: "1", GIT_TERMINAL_PROMPT: "0" });

type GitResult = { ok: true; stdout: string; status: number } | { ok: false; stderr: string; status: number | null };

/**
 * Runs git in cwd with the guards above (and `overrides`, more `-c` options); exit codes in `okStatus` count as
 * success. `askHooksPath` keeps core.hooksPath as configured, for the one call that asks where hooks live.
 */
function runGit(
  cwd: string,
  env: GitEnvironment,
  args: string[],
  options: { input?: string; overrides?: string[]; okStatus?: number[]; askHooksPath?: boolean } = {},
): GitResult {
  const result = spawnSync("git", [...GUARDS, ...(options.askHooksPath === true ? [] : NO_HOOKS), ...(options.overrides ?? []), ...args], {
    cwd,
    encoding: "utf8",
    env: environment(env),
    maxBuffer: 512 * 1024 * 1024,
    stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    ...(options.input !== undefined && { input: options.input }),
    windowsHide: true,
  });
  const okStatus = options.okStatus ?? [0];
  if (result.error || result.status === null || !okStatus.includes(result.status)) {
    return { ok: false, stderr: (result.stderr || result.error?.message || "git failed").trim(), status: result.status };
  }
  return { ok: true, stdout: result.stdout, status: result.status };
}

export function splitNul(stdout: string): string[] {
  return stdout.split("\0").filter((line) => line !== "");
}

/** The files in git's index (tracked, or staged to be) under cwd, limited by pathspecs; null when git cannot say. */
export function trackedFiles(cwd: string, pathspecs: string[], env: GitEnvironment): string[] | null {
  const result = runGit(cwd, env, ["ls-files", "-z", "--cached", "--", ...pathspecs]);
  return result.ok ? [...new Set(splitNul(result.stdout))] : null;
}

/**
 * Git's own answer to which of these root-relative paths it ignores (`check-ignore --no-index`: the ignore rules
 * alone, so a tracked file under an ignore rule counts as ignored). When git cannot say, nothing is ignored.
 */
export function ignoredByGit(root: string, paths: string[], env: GitEnvironment): (path: string) => boolean {
  // Exit 1 means nothing is ignored; anything else but 0 means git could not say.
  const result = runGit(root, env, ["check-ignore", "--no-index", "-z", "--stdin"], { input: paths.join("\0"), okStatus: [0, 1] });
  const ignored = new Set(result.ok ? splitNul(result.stdout) : []);
  return (path) => ignored.has(path);
}

/**
 * The files of a commit (`--base REF`), root-relative: `ls-tree` reads objects only, never the work tree or the
 * index, so no filter, fsmonitor or hook is involved; an error names what git said.
 */
export function filesAt(root: string, ref: string, env: GitEnvironment): GitResult {
  if (ref.startsWith("-")) return { ok: false, stderr: `${ref}: not a revision`, status: null };
  return runGit(root, env, ["ls-tree", "-r", "-z", "--full-tree", ref, "--"]);
}

/** `filesAt`'s output: each path with git's mode for it (`120000` a symlink, whose blob is its target's path). */
export function treeEntries(stdout: string): Array<{ path: string; mode: string }> {
  // Each entry is `<mode> <type> <object>\t<path>`, NUL-terminated.
  return splitNul(stdout).map((entry) => {
    const tab = entry.indexOf("\t");
    return { path: entry.slice(tab + 1), mode: entry.slice(0, entry.indexOf(" ")) };
  });
}

/**
 * The bytes of these files at REF, each at most `maxBytes` (a larger one is left out: its size is asked for first),
 * read with one `cat-file --batch`: objects only, without textconv or filters (the plain blob).
 */
export function blobsAt(
  root: string,
  ref: string,
  paths: readonly string[],
  maxBytes: number,
  env: GitEnvironment,
): { blobs: Map<string, Buffer>; tooLarge: string[] } | { error: string } {
  const blobs = new Map<string, Buffer>();
  const tooLarge: string[] = [];
  if (paths.length === 0) return { blobs, tooLarge };
  // A path with a newline cannot be asked for on a --batch line; such a file is left out.
  const asked = paths.filter((p) => !p.includes("\n"));
  const sizes = runGit(root, env, ["cat-file", "--batch-check=%(objecttype) %(objectsize)"], { input: asked.map((p) => `${ref}:${p}\n`).join("") });
  if (!sizes.ok) return { error: sizes.stderr };
  const small = asked.filter((p, i) => {
    const [type, size] = (sizes.stdout.split("\n")[i] ?? "").split(" ");
    if (type !== "blob") return false;
    if (Number(size) > maxBytes) tooLarge.push(p);
    return Number(size) <= maxBytes;
  });
  const result = spawnSync("git", [...GUARDS, ...NO_HOOKS, "cat-file", "--batch"], {
    cwd: root,
    env: environment(env),
    input: small.map((p) => `${ref}:${p}\n`).join(""),
    maxBuffer: 512 * 1024 * 1024,
    windowsHide: true,
  });
  if (result.error || result.status !== 0) return { error: (result.stderr?.toString() || result.error?.message || "git failed").trim() };
  const out = result.stdout;
  let at = 0;
  for (const path of small) {
    const eol = out.indexOf(10, at);
    if (eol === -1) break;
    const size = Number(out.subarray(at, eol).toString("latin1").split(" ")[2]);
    blobs.set(path, out.subarray(eol + 1, eol + 1 + size));
    at = eol + 1 + size + 1;
  }
  return { blobs, tooLarge };
}

/** Root-relative paths staged in the index (`--staged`); an error names what git said. */
export function stagedFiles(root: string, env: GitEnvironment): GitResult {
  return runGit(root, env, ["diff", ...DIFF_GUARDS, "--cached", "--name-only", "--relative", "-z"]);
}

/**
 * Root-relative paths whose work-tree content differs from `ref` (`--changed`). This diff reads the work tree, so
 * the repository's filter drivers are switched off first: git runs a driver's clean command on a file whose stat
 * data changed (a touch is enough) to hash what it would store.
 */
export function changedFiles(root: string, ref: string, flag: string, env: GitEnvironment): GitResult {
  return runGit(root, env, ["diff", ...DIFF_GUARDS, "--name-only", "--relative", "-z", ref, "--"], { overrides: filterOverrides(root, flag, env) });
}

/** Untracked files git does not ignore (`--changed` counts them as changed). */
export function untrackedFiles(root: string, env: GitEnvironment): GitResult {
  return runGit(root, env, ["ls-files", "--others", "--exclude-standard", "-z"]);
}

/**
 * Where git keeps its hooks (`rev-parse --git-path hooks`, which follows core.hooksPath), or what git said when it
 * cannot tell. rev-parse runs no hook, so core.hooksPath is left as configured here.
 */
export function hooksFolder(root: string, env: GitEnvironment): GitResult {
  return runGit(root, env, ["rev-parse", "--git-path", "hooks"], { askHooksPath: true });
}

/** Scopes whose config is the user's or the system's: their filter drivers (git-lfs's) keep running. */
const USER_SCOPES = new Set(["system", "global", "command"]);

/**
 * `-c` options that switch off every filter driver the repository's own config defines (local or worktree
 * scope, with the files they include): no clean, smudge or process command, and not required (a required filter
 * without a command makes git stop). Listed with `git config`, which runs nothing. A driver name `-c` cannot
 * express (one with `=`) stops the command: it would otherwise run.
 */
function filterOverrides(root: string, flag: string, env: GitEnvironment): string[] {
  const listed = runGit(root, env, ["config", "-z", "--name-only", "--show-scope", "--get-regexp", "^filter\\."], { okStatus: [0, 1] });
  if (!listed.ok) throw usageError(`${flag}: git could not list the repository's filter drivers, so git diff was not run (${listed.stderr.split("\n")[0]})`);
  const drivers = new Set<string>();
  const fields = splitNul(listed.stdout);
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const scope = fields[i]!;
    const key = fields[i + 1]!;
    const last = key.lastIndexOf(".");
    if (USER_SCOPES.has(scope) || last <= "filter.".length) continue;
    drivers.add(key.slice("filter.".length, last));
  }
  const overrides: string[] = [];
  for (const driver of drivers) {
    if (driver.includes("="))
      throw usageError(
        `${flag}: the repository's git config defines a filter driver named "${driver}", which ctxinject cannot switch off; git diff was not run`,
      );
    for (const setting of ["clean=", "smudge=", "process=", "required=false"]) overrides.push("-c", `filter.${driver}.${setting}`);
  }
  return overrides;
}
