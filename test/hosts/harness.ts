/**
 * What every real-host suite shares: the host CLI installed from npm into a cache the suite owns, and a run of
 * it inside `unshare -n` against the fake API (run-host.mjs), with the requests it recorded.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { BIN, cleanup, REPO, stopHookServers } from "../helpers/cli.js";

/** Where the suites keep host CLIs between runs: they are large (each carries a native binary of 100–400 MB). */
export const HOSTS_CACHE = process.env.CTXINJECT_HOSTS_CACHE ?? join(homedir(), ".cache/ctxinject-hosts");

export interface HostPackage {
  /** The npm package and the pinned version. */
  name: string;
  version: string;
  /** The executable to run, relative to the install folder's node_modules. */
  binary: string;
  /** Arguments that print the version, and the text the output must contain. */
  versionArgs: string[];
  /** Environment for the version check on top of PATH and HOME (e.g. a shared unpack cache). */
  env?: Record<string, string>;
}

export type Found = { path: string } | { skip: string };

/**
 * The host's executable, installed from npm into the cache on first use; or why it cannot be had. The suites run
 * a host only in a network namespace, so a machine without `unshare -n` skips them too.
 */
export function installHost(pkg: HostPackage): Found {
  const unshare = spawnSync("unshare", ["-n", "true"]);
  if (unshare.status !== 0) return { skip: "unshare -n is not available here (the suites run a host only in a network namespace)" };
  const dir = join(HOSTS_CACHE, `${pkg.name.replace(/^@/, "").replace(/\//g, "-")}-${pkg.version}`);
  const binary = join(dir, "node_modules", pkg.binary);
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    const install = spawnSync(
      "npm",
      ["install", "--prefix", dir, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error", `${pkg.name}@${pkg.version}`],
      {
        encoding: "utf8",
        timeout: 15 * 60_000,
      },
    );
    if (!existsSync(binary))
      return { skip: `npm could not install ${pkg.name}@${pkg.version}: ${(install.stderr || install.error?.message || "").trim().split("\n").pop()}` };
  }
  const home = mkdtempSync(join(tmpdir(), "ctxinject-host-version-"));
  const version = spawnSync(binary, pkg.versionArgs, { encoding: "utf8", env: { PATH: process.env.PATH, HOME: home, ...pkg.env }, timeout: 60_000 });
  rmSync(home, { recursive: true, force: true });
  if (!version.stdout?.includes(pkg.version))
    return { skip: `${binary} ${pkg.versionArgs.join(" ")} said ${JSON.stringify(version.stdout || version.error?.message)}` };
  return { path: binary };
}

export interface Recorded {
  method: string;
  url: string;
  body: { messages?: unknown[]; tools?: unknown[]; system?: unknown; [key: string]: unknown } | null;
}

export interface Outcome {
  runs: Array<{ args: string[]; status: number | null; stdout: string; stderr: string; ms: number }>;
  requests: Recorded[];
  /** The hook calls ctxinject's hook server answered (its log: one line each). */
  served: string[];
}

export interface Scenario {
  command: string;
  cwd: string;
  /** Environment on top of PATH, HOME and NO_COLOR; "{{API}}" becomes the fake API's address. */
  env: Record<string, string>;
  /** Files written before the first run (absolute path → text, with "{{API}}" filled in). */
  files?: Record<string, string>;
  script: Array<Record<string, unknown>>;
  /** `converse`: lines written to stdin one by one, each once the host printed the previous one's `until` (run-host.mjs). */
  runs: Array<{ args: string[]; input?: string; converse?: Array<{ send: unknown; until: string }>; cwd?: string; command?: string }>;
}

const temp: string[] = [];

/** A private work folder (home, state) for one scenario, removed after the suite unless CTXINJECT_KEEP_HOSTS is set. */
export function workFolder(host: string): string {
  const work = mkdtempSync(join(tmpdir(), `ctxinject-${host}-`));
  temp.push(work);
  mkdirSync(join(work, "home"));
  // The hook server of the scenario's hooks is its own (a spool in the work folder), and says what it answered.
  mkdirSync(join(work, "run"), { mode: 0o700 });
  return work;
}

/** What a scenario's ctxinject hooks need on top of the host's environment: a hook server of the scenario's own. */
const hookServerEnv = (work: string): Record<string, string> => ({
  XDG_RUNTIME_DIR: join(work, "run"),
  CTXINJECT_HOOK_SERVER_LOG: join(work, "hook-server.log"),
  CTXINJECT_HOOK_SERVER_IDLE_MS: "20000",
});

export function removeWorkFolders(): void {
  if (!process.env.CTXINJECT_KEEP_HOSTS) for (const dir of temp.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * A host suite's `test`: skipped when its CLI could not be installed (installHost said so in one line) or something
 * else it needs is missing; the fixtures' copies and work folders go after the suite.
 */
export function hostSuite(found: Found, ready = true): typeof test.skip {
  test.after(() => {
    cleanup();
    removeWorkFolders();
  });
  return "path" in found && ready ? test : test.skip;
}

/** Runs the scenario in one network namespace with one fake API; every run must exit 0. */
export function runScenario(work: string, scenario: Scenario, host: string): Outcome {
  writeFileSync(join(work, "scenario.json"), JSON.stringify({ ...scenario, env: { ...hookServerEnv(work), ...scenario.env }, home: join(work, "home") }));
  const result = spawnSync("unshare", ["-n", process.execPath, join(REPO, "test/hosts/run-host.mjs"), join(work, "scenario.json"), join(work, "out.json")], {
    encoding: "utf8",
    timeout: 600_000,
  });
  stopHookServers(join(work, "run"));
  assert.is(result.status, 0, result.stderr);
  const log = join(work, "hook-server.log");
  const served = existsSync(log)
    ? readFileSync(log, "utf8")
        .split("\n")
        .filter((line) => line !== "")
    : [];
  const out = { ...(JSON.parse(readFileSync(join(work, "out.json"), "utf8")) as Omit<Outcome, "served">), served };
  for (const run of out.runs) assert.is(run.status, 0, `${host} ${run.args.join(" ")}: ${run.stderr.slice(-3000)}`);
  return out;
}

export { countOf as count } from "../helpers/doc.js";

/** The requests of the agent loop (those offering tools), optionally narrowed further. */
export const agentTurns = (out: Outcome, also: (r: Recorded) => boolean = () => true) =>
  out.requests.filter((r) => ((r.body?.tools as unknown[] | undefined)?.length ?? 0) > 0 && also(r));

/** The last agent request's body as text, to count markers in. */
export const lastAgentTurn = (out: Outcome, also?: (r: Recorded) => boolean) => JSON.stringify(agentTurns(out, also).at(-1)?.body ?? {});

/** A skill whose description carries a marker, in `folder` of the project. */
export function writeSkill(root: string, folder: string, name: string, marker: string): void {
  mkdirSync(join(root, folder, name), { recursive: true });
  writeFileSync(
    join(root, folder, name, "SKILL.md"),
    `---\nname: ${name}\ndescription: Reconcile the quarterly ledgers (${marker}-DESC)\n---\n\nSteps of the ${name} skill. (${marker}-BODY)\n`,
  );
}

/**
 * ctxinject installed in the project the way `npm install --save-dev ctxinject` lays it out (the package under
 * node_modules, its bin linked from node_modules/.bin), so that the portable commands init writes find it.
 */
export function installInProject(root: string): void {
  mkdirSync(join(root, "node_modules/.bin"), { recursive: true });
  symlinkSync(REPO, join(root, "node_modules/ctxinject"));
  symlinkSync(BIN, join(root, "node_modules/.bin/ctxinject"));
}
