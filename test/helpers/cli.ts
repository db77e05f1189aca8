import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const BIN = join(REPO, "bin/ctxinject.js");
export const FIXTURES = join(REPO, "fixtures");

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The environment a test's run of the CLI gets: this process's, NO_COLOR set, the test run's own state and config folders, `overrides` on top (undefined removes). */
export function testEnvironment(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  // Sessions and saved globs go to a folder of the test run's own, never the user's state folder.
  const stateDefault = overrides.CTXINJECT_STATE_DIR === undefined && overrides.XDG_STATE_HOME === undefined ? { CTXINJECT_STATE_DIR: testStateDir() } : {};
  // The user's own config (and git's and the agents' user settings under it) is never the developer's: an empty folder.
  const configDefault = "XDG_CONFIG_HOME" in overrides ? {} : { XDG_CONFIG_HOME: testConfigHome() };
  // A hook server the tests start ends soon after them (src/cli/hook-transport/server.ts).
  const env: Record<string, string | undefined> = {
    ...process.env,
    NO_COLOR: "1",
    FORCE_COLOR: undefined,
    CTXINJECT_HOOK_SERVER_IDLE_MS: "30000",
    ...stateDefault,
    ...configDefault,
    ...overrides,
  };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return env as Record<string, string>;
}

/**
 * A hook answered in its own process: no hook server is asked or started. (Without this or `ownHookServer`, a hook a
 * test runs could be answered by whatever server of this build already runs on the machine, with its own state.)
 */
export const HOOK_SERVER_OFF = { CTXINJECT_HOOK_SERVER: "0" } as const;

/** A hook answered through a hook server of the test's own: its spool under `runtime`, its sessions in `state`. */
export function ownHookServer(runtime: string, state: string): { XDG_RUNTIME_DIR: string; CTXINJECT_STATE_DIR: string } {
  return { XDG_RUNTIME_DIR: runtime, CTXINJECT_STATE_DIR: state };
}

/**
 * Throws unless a run of `ctxinject hook …` says which path answers it: the server off (CTXINJECT_HOOK_SERVER=0), or
 * a server of its own (its own XDG_RUNTIME_DIR, hence spool, and its own CTXINJECT_STATE_DIR). `env` is what the
 * test sets on top of the inherited environment, which is never trusted to say it.
 */
export function assertHookPathStated(args: readonly string[], env: Record<string, string | undefined> = {}): void {
  if (args[0] !== "hook") return;
  const off = ["0", "off", "false", "no"].includes((env.CTXINJECT_HOOK_SERVER ?? "").toLowerCase());
  const own = env.XDG_RUNTIME_DIR !== undefined && env.XDG_RUNTIME_DIR !== "" && env.CTXINJECT_STATE_DIR !== undefined;
  if (!off && !own) {
    throw new Error(
      `ctxinject ${args.join(" ")}: a test must say which path answers a hook: HOOK_SERVER_OFF, or ownHookServer(runtime, state) (test/helpers/cli.ts)`,
    );
  }
}

/** Spawns the built CLI as a user would, with NO_COLOR set unless the test overrides the environment. */
export function runCli(args: string[], options: { cwd?: string; env?: Record<string, string | undefined>; input?: string } = {}): CliResult {
  assertHookPathStated(args, options.env);
  const env = testEnvironment(options.env);
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? REPO,
    env,
    encoding: "utf8",
    input: options.input ?? "",
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * How long `ctxinject --version` takes from spawn to exit right now: what starting the CLI costs on this machine at
 * that moment. A test bounding a spawned run's wall time adds it, since a loaded machine's start alone can outlast a
 * bound in milliseconds (a hook's deadline counts from its own start).
 */
export function cliStartUp(): number {
  const started = performance.now();
  spawnSync(process.execPath, [BIN, "--version"], { cwd: REPO, env: testEnvironment(), stdio: "ignore" });
  return performance.now() - started;
}

const made: string[] = [];
let stateDir: string | undefined;
const testStateDir = () => (stateDir ??= mkdtempSync(join(tmpdir(), "ctxinject-test-state-")));
let configHome: string | undefined;
const testConfigHome = () => (configHome ??= mkdtempSync(join(tmpdir(), "ctxinject-test-config-")));
process.on("exit", () => {
  if (stateDir !== undefined) rmSync(stateDir, { recursive: true, force: true });
  if (configHome !== undefined) rmSync(configHome, { recursive: true, force: true });
});

/** A private copy of a fixture in a temporary folder, as its own git repository (files staged) unless `git: false`. */
export function materialize(fixture: string, options: { git?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), `ctxinject-${fixture}-`));
  made.push(dir);
  cpSync(join(FIXTURES, fixture), dir, { recursive: true, verbatimSymlinks: true });
  if (options.git !== false) {
    git(dir, "init", "-q");
    git(dir, "add", "-A");
  }
  return dir;
}

/** A local install of ctxinject as `init` finds it (node_modules/.bin/ctxinject), so hook commands name it. */
export function fakeLocalInstall(root: string): void {
  mkdirSync(join(root, "node_modules/.bin"), { recursive: true });
  writeFileSync(join(root, "node_modules/.bin/ctxinject"), "#!/bin/sh\n");
  chmodSync(join(root, "node_modules/.bin/ctxinject"), 0o755);
}

export function git(cwd: string, ...args: string[]): string {
  const result = spawnSync("git", ["-c", "user.name=ctxinject-test", "-c", "user.email=test@example.invalid", "-c", "commit.gpgsign=false", ...args], {
    cwd,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr}`);
  return result.stdout;
}

export function cleanup(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The lock files of the hook servers whose spools are under `runtime` (an XDG_RUNTIME_DIR a test or the bench gave its hooks). */
export function hookServerLocks(runtime: string): string[] {
  if (!existsSync(runtime)) return [];
  return readdirSync(runtime, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith("server.pid"))
    .map((name) => join(runtime, name));
}

/** The one spool folder the hooks made under `runtime` (ctxinject-<uid>/<build>). */
export function spoolOf(runtime: string): string {
  const top = join(runtime, `ctxinject-${process.getuid!()}`);
  const [build] = readdirSync(top);
  return join(top, build!);
}

/** The pid in the hook server's lock under `runtime`, or null while no server has started there. */
export function hookServerPid(runtime: string): number | null {
  try {
    return Number(readFileSync(join(spoolOf(runtime), "server.pid"), "utf8"));
  } catch {
    return null;
  }
}

/** Whether a process of that pid is alive (and signalable by this user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the hook servers whose spools are under `runtime`. */
export function stopHookServers(runtime: string): void {
  for (const lock of hookServerLocks(runtime)) {
    try {
      process.kill(Number(readFileSync(lock, "utf8")));
    } catch {
      // ended already
    }
  }
}
