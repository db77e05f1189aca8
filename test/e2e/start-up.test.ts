import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, hookServerLocks, materialize, REPO, runCli, stopHookServers } from "../helpers/cli.js";
import { until } from "../helpers/wait.js";
import { tempFolders } from "../helpers/temp.js";

// The bin starts the bundle from V8's code cache; these run a private copy of bin/ and dist/bundle/ so the cache
// can be spoiled without touching the one the other tests use.

const { folder } = tempFolders(test);
test.after(cleanup);

function installedCopy(): string {
  const dir = folder("install");
  cpSync(join(REPO, "bin"), join(dir, "bin"), { recursive: true });
  // File times are not kept, as npm does not keep them when it unpacks a package.
  cpSync(join(REPO, "dist/bundle"), join(dir, "dist/bundle"), { recursive: true });
  cpSync(join(REPO, "package.json"), join(dir, "package.json"));
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"));
  return dir;
}

function runCopy(install: string, cwd: string, input: string) {
  return spawnSync(process.execPath, [join(install, "bin/ctxinject.js"), "build", "--tokenizer", "o200k"], {
    cwd,
    input,
    encoding: "utf8",
    // The user's own code cache goes to the copy's folder, never to the real ~/.cache.
    env: { ...process.env, NO_COLOR: "1", CTXINJECT_DEBUG: "1", XDG_CACHE_HOME: join(install, "user-cache") },
  });
}

const PROMPT = "fix the retry in packages/api/src/handlers/user.ts\n";

test("the build's code cache is used, and a spoiled one or one of another build changes nothing but the speed", () => {
  const root = materialize("monorepo");
  const expected = runCli(["build", "--tokenizer", "o200k"], { cwd: root, input: PROMPT });
  assert.is(expected.status, 0);
  const install = installedCopy();
  const bundle = join(install, "dist/bundle");
  const caches = readdirSync(bundle).filter((name) => name.startsWith("main-") && name.endsWith(".cache"));
  assert.is(caches.length, 1, "npm run build records one cache for the CLI bundle, named after the build");

  const fresh = runCopy(install, root, PROMPT);
  assert.is(fresh.stdout, expected.stdout);
  assert.not.match(fresh.stderr, "code cache", "the cache made by npm run build is used");

  writeFileSync(join(bundle, caches[0]!), Buffer.from("not a V8 code cache at all"));
  const spoiled = runCopy(install, root, PROMPT);
  assert.is(spoiled.status, 0);
  assert.is(spoiled.stdout, expected.stdout);
  assert.match(spoiled.stderr, "V8 rejected the code cache");
  assert.match(spoiled.stderr, "then writing");
  // As under a Node other than the one that built the package: the first run left the user a cache of their own.
  const again = runCopy(install, root, PROMPT);
  assert.is(again.stdout, expected.stdout);
  assert.match(again.stderr, `using ${join(install, "user-cache", "ctxinject")}`);

  // Another build of the bundle (same length, another build line) finds no cache of its own.
  const source = readFileSync(join(bundle, "main.cjs"), "utf8");
  writeFileSync(
    join(bundle, "main.cjs"),
    source.replace(/ctxinject-build [0-9a-f]+/, (line) => line.replace(/[0-9a-f]$/, (c) => (c === "0" ? "1" : "0"))),
  );
  const other = runCopy(install, root, PROMPT);
  assert.is(other.stdout, expected.stdout);
  assert.match(other.stderr, "no code cache for this build of the bundle");
});

test("the user's own code caches of a bundle: the four newest stay when a run writes one, others' files are left alone", () => {
  const root = materialize("monorepo");
  const install = installedCopy();
  const bundle = join(install, "dist/bundle");
  // A Node other than the one that built the package: no shipped cache is taken, so the run writes the user's own.
  for (const name of readdirSync(bundle)) if (name.startsWith("main-") && name.endsWith(".cache")) rmSync(join(bundle, name));
  const own = join(install, "user-cache", "ctxinject");
  mkdirSync(own, { recursive: true, mode: 0o700 });
  // Six older builds' caches, a day apart, and files that are no cache of this bundle.
  const older = Array.from({ length: 6 }, (_, i) => `main-0000000${i}-v20.0.0-${process.arch}.cache`);
  older.forEach((file, i) => {
    writeFileSync(join(own, file), "old", { mode: 0o600 });
    const days = (Date.now() - (i + 1) * 86_400_000) / 1000;
    utimesSync(join(own, file), days, days);
  });
  writeFileSync(join(own, "hook-00000000-v20.0.0-x64.cache"), "a hook's", { mode: 0o600 });
  writeFileSync(join(own, "notes.txt"), "mine", { mode: 0o600 });
  const run = runCopy(install, root, PROMPT);
  assert.is(run.status, 0, run.stderr);
  assert.match(run.stderr, "then writing");
  const left = readdirSync(own).sort();
  const written = left.filter((file) => file.startsWith("main-") && !older.includes(file));
  assert.is(written.length, 1, left.join(", "));
  // The one written and the three newest older ones; the other bundle's cache and the user's file stay.
  assert.equal(left, [...older.slice(0, 3), written[0]!, "hook-00000000-v20.0.0-x64.cache", "notes.txt"].sort());
});

test("a hook runs its own bundle from its own code cache, and answers as the full CLI does", () => {
  const root = materialize("monorepo");
  const install = installedCopy();
  const event = JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: "start-up", cwd: root, prompt: PROMPT });
  const state = folder("state");
  const hook = spawnSync(process.execPath, [join(install, "bin/ctxinject.js"), "hook", "claude"], {
    cwd: root,
    input: event,
    encoding: "utf8",
    // In its own process: no hook server, which would start from this copy in the user's spool and outlive the test.
    env: { ...process.env, NO_COLOR: "1", CTXINJECT_DEBUG: "1", CTXINJECT_STATE_DIR: state, CTXINJECT_HOOK_SERVER: "0" },
  });
  assert.is(hook.status, 0, hook.stderr);
  assert.not.match(hook.stderr, "code cache", "the hook bundle's cache made by npm run build is used");
  assert.ok(readdirSync(join(install, "dist/bundle")).some((name) => name.startsWith("hook-") && name.endsWith(".cache")));
  const answer = JSON.parse(hook.stdout) as { hookSpecificOutput: { additionalContext: string } };
  assert.match(answer.hookSpecificOutput.additionalContext, "packages/api");
});

test("doctor, coverage, init, mcp and trust live in a bundle of their own, from its own code cache; a build and a hook run without it", () => {
  const root = materialize("monorepo");
  const install = installedCopy();
  const bundle = join(install, "dist/bundle");
  const env = { ...process.env, NO_COLOR: "1", CTXINJECT_DEBUG: "1", CTXINJECT_HOOK_SERVER: "0", XDG_CACHE_HOME: join(install, "user-cache") };
  const run = (args: string[], input = "") =>
    spawnSync(process.execPath, [join(install, "bin/ctxinject.js"), ...args], { cwd: root, input, encoding: "utf8", env });
  assert.is(
    readdirSync(bundle).filter((name) => name.startsWith("occasional-") && name.endsWith(".cache")).length,
    1,
    "npm run build records one cache for it",
  );

  const expected = runCli(["doctor", "--root", root, "--format", "json"], { cwd: root });
  const doctor = run(["doctor", "--root", root, "--format", "json"]);
  assert.is(doctor.status, expected.status);
  assert.is(doctor.stdout, expected.stdout);
  assert.not.match(doctor.stderr, "code cache", "the cache made by npm run build is used");
  // A CtxinjectError thrown in that bundle is the CLI's: one line and exit 2, not an internal error.
  const mistyped = run(["coverage", "--root", root, "--as", "nosuch"]);
  assert.is(mistyped.status, 2);
  assert.match(mistyped.stderr, /^ctxinject: --as nosuch: not an agent/);
  assert.not.match(mistyped.stderr, "internal error");

  for (const name of readdirSync(bundle)) if (name.startsWith("occasional")) rmSync(join(bundle, name));
  const build = run(["build", "--files", "packages/web/src/components/Button.tsx"], PROMPT);
  assert.is(build.status, 0, build.stderr);
  assert.is(build.stdout, runCli(["build", "--files", "packages/web/src/components/Button.tsx"], { cwd: root, input: PROMPT }).stdout);
  const hook = run(["hook", "claude"], JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: "occasional", cwd: root, prompt: PROMPT }));
  assert.is(hook.status, 0, hook.stderr);
  assert.match(hook.stdout, "additionalContext");
});

/** Node modules a run loads beyond those of a script that does nothing. */
function modulesLoaded(args: string[], cwd: string, input: string, env: Record<string, string | undefined> = {}): string[] {
  const dir = folder("modules");
  const preload = join(dir, "record.cjs");
  // Node's own modules, and any package file required at run time (the MCP SDK, chokidar, cosmiconfig load only
  // for the commands that need them; the bundle holds the rest).
  writeFileSync(
    preload,
    `process.on("exit", () => require("fs").writeFileSync(process.env.RECORD, [...process.moduleLoadList, ...Object.keys(require.cache).filter((k) => k.includes("node_modules")).map((k) => "package " + k.split("node_modules/").pop())].join("\\n")));`,
  );
  // The floor is an empty script where the bin is (a .js file in a CommonJS package), so Node's own loading of
  // a script is on both sides.
  mkdirSync(join(dir, "bin"));
  writeFileSync(join(dir, "bin/nothing.js"), "");
  writeFileSync(join(dir, "bin/package.json"), '{ "type": "commonjs" }');
  const record = (script: string[], file: string) => {
    const result = spawnSync(process.execPath, ["--require", preload, ...script], {
      cwd,
      input,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1", RECORD: join(dir, file), ...env },
    });
    assert.ok(result.status === 0, result.stderr);
    return readFileSync(join(dir, file), "utf8").split("\n");
  };
  const floor = new Set(record([join(dir, "bin/nothing.js")], "floor"));
  return record([join(REPO, "bin/ctxinject.js"), ...args], "run").filter((m) => !floor.has(m));
}

// vm runs the bundle from its code cache; process is commander's. Anything else (node:module with the loader parts
// it brings, os, streams, net, crypto, tty…) costs time on every prompt: load it where it is used, with lazyRequire.
const START_UP_MODULES = ["NativeModule vm", "NativeModule process"];

test("a build with a prompt and a hook's prompt and file events load no Node module beyond the start-up allow-list", async () => {
  const root = materialize("monorepo");
  // As a user runs them: the state folder found from HOME.
  const home = folder("home");
  const event = (fields: Record<string, unknown>) => JSON.stringify({ session_id: "modules", cwd: root, ...fields });
  const runs: Array<[string[], string]> = [
    [["build", "--files", "packages/web/src/components/Button.tsx", "--format", "json"], PROMPT],
    [["hook", "claude"], event({ hook_event_name: "UserPromptSubmit", prompt: PROMPT })],
    [
      ["hook", "claude"],
      event({ hook_event_name: "PostToolUse", tool_name: "Read", tool_input: { file_path: join(root, "packages/api/src/handlers/user.ts") } }),
    ],
    [["hook", "codex"], event({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "cat packages/web/src/components/Button.tsx" } })],
  ];
  // A hook in its own process, and a hook the warm server answers (one started for this test, in a spool of its own).
  const run = folder("run");
  const served = join(run, "served.log");
  // The server outlives the test's slowest run on a loaded machine (the finally below stops it).
  const asUser = {
    HOME: home,
    CTXINJECT_STATE_DIR: undefined,
    XDG_STATE_HOME: undefined,
    XDG_RUNTIME_DIR: run,
    CTXINJECT_HOOK_SERVER_IDLE_MS: "600000",
    CTXINJECT_HOOK_SERVER_LOG: served,
  };
  const [, start] = runs[1]!;
  spawnSync(process.execPath, [join(REPO, "bin/ctxinject.js"), "hook", "claude"], {
    cwd: root,
    input: start.replace('"modules"', '"modules-start"'),
    env: { ...process.env, ...asUser } as NodeJS.ProcessEnv,
  });
  await until(() => hookServerLocks(run).length > 0, "the hook server to start");
  // The server writes its log line just after its answer: a line is waited for, not counted as the client ends.
  const servedLines = () => (existsSync(served) ? readFileSync(served, "utf8").trim().split("\n").length : 0);
  try {
    for (const [args, input] of runs) {
      for (const server of args[0] === "hook" ? ["0", "1"] : ["0"]) {
        const before = servedLines();
        const extra = modulesLoaded(args, root, input, { ...asUser, CTXINJECT_HOOK_SERVER: server }).filter((m) => !START_UP_MODULES.includes(m));
        assert.equal(extra, [], `ctxinject ${args.join(" ")} (hook server ${server}) loaded ${extra.join(", ")}`);
        // The client's runs were the server's to answer (its log has a line for each), not the hook bundle's.
        if (server === "1") await until(() => servedLines() > before, `the hook server's log line for ctxinject ${args.join(" ")}`, 10_000);
      }
    }
    assert.is(servedLines(), runs.filter(([args]) => args[0] === "hook").length);
  } finally {
    stopHookServers(run);
  }
});

test("a copy without its built bundle says to build it, without a stack trace", () => {
  const install = installedCopy();
  rmSync(join(install, "dist"), { recursive: true });
  const result = runCopy(install, REPO, "");
  assert.is(result.status, 70);
  assert.match(result.stderr, "run npm run build");
  assert.not.match(result.stderr, "    at ");
});

test.run();
