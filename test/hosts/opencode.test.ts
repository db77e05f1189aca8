/**
 * The real opencode CLI (pinned below), run inside `unshare -n` against a fake OpenAI-compatible API on 127.0.0.1
 * that records every request, with ctxinject installed by `ctxinject init --opencode`. Each case asserts on
 * what reached the model: which marker texts, and how many times.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, materialize, runCli } from "../helpers/cli.js";
import { onPath, testUnless } from "../helpers/lane.js";
import {
  agentTurns,
  count,
  lastAgentTurn,
  HOSTS_CACHE,
  installHost,
  type Outcome,
  type Recorded,
  runScenario,
  workFolder,
  writeSkill,
  installInProject,
  hostSuite,
} from "./harness.js";
import { HOST_VERSIONS } from "./versions.js";

/** Pinned in versions.ts, with every other host. */
export const OPENCODE_VERSION = HOST_VERSIONS.opencode;

const PLATFORM_PACKAGE: Record<string, string> = {
  "linux-x64": "opencode-linux-x64",
  "linux-arm64": "opencode-linux-arm64",
  "darwin-arm64": "opencode-darwin-arm64",
  "darwin-x64": "opencode-darwin-x64",
};

function opencodeBinary() {
  const pkg = PLATFORM_PACKAGE[`${process.platform}-${process.arch}`];
  if (!pkg) return { skip: `no opencode binary for ${process.platform}-${process.arch}` };
  return installHost({ name: "opencode-ai", version: OPENCODE_VERSION, binary: `${pkg}/bin/opencode`, versionArgs: ["--version"] });
}

/**
 * opencode's plugin package, installed once into the cache the way `init --opencode` installs it into a project;
 * each scenario gets a copy of the manifest and lock and a link to node_modules, so only one case pays for npm.
 */
function pluginDependencies(): string | null {
  const dir = join(HOSTS_CACHE, `opencode-plugin-deps-${OPENCODE_VERSION}`);
  if (existsSync(join(dir, "package-lock.json"))) return dir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ dependencies: { "@opencode-ai/plugin": OPENCODE_VERSION } })}\n`);
  const npm = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, encoding: "utf8", timeout: 300_000 });
  return npm.status === 0 ? dir : null;
}

const found = opencodeBinary();
const deps = "path" in found ? pluginDependencies() : null;
if ("skip" in found) console.log(`opencode host suite skipped: ${found.skip}`);
else if (deps === null) console.log("opencode host suite skipped: npm could not install @opencode-ai/plugin into the cache");
else console.log(`opencode host suite: opencode ${OPENCODE_VERSION}`);

const MODEL = "fake/m1";
const GPT = "fake/gpt-5-fake";
/** A provider of our own pointing at the fake API; nothing is fetched from models.dev. */
const CONFIG = {
  provider: {
    fake: {
      npm: "@ai-sdk/openai-compatible",
      name: "Fake",
      options: { baseURL: "{{API}}/v1", apiKey: "sk-fake-key-for-tests" },
      models: { m1: { name: "M1", tool_call: true }, "gpt-5-fake": { name: "GPT fake", tool_call: true } },
    },
  },
  model: MODEL,
  autoupdate: false,
  share: "disabled",
  permission: { edit: "allow", bash: "allow", read: "allow", external_directory: "allow" },
};

type Step = ({ text: string } | { tool: { name: string; input: Record<string, unknown> } }) & { when?: string; unless?: string };
type Run = { args: string[]; command?: string };

/** Runs the real CLI once per entry of `runs`, in one network namespace with one fake API and one script. */
function opencode(root: string, script: Step[], runs: Run[], options: { deps?: boolean } = {}): Outcome {
  const work = workFolder("opencode");
  const home = join(work, "home");
  // opencode installs its plugin package into the global config folder too; give it the cached one.
  if (options.deps !== false) provideDependencies(join(home, ".config/opencode"));
  const env = {
    OPENCODE_CONFIG_CONTENT: JSON.stringify(CONFIG),
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    OPENCODE_DISABLE_TERMINAL_TITLE: "1",
    CTXINJECT_STATE_DIR: join(work, "state"),
  };
  return runScenario(work, { command: (found as { path: string }).path, cwd: root, env, script, runs }, "opencode");
}

/** The cached install in `dir`: its lock and node_modules, and its package.json unless one is there (init's). */
function provideDependencies(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const name of ["package.json", "package-lock.json"])
    if (name !== "package.json" || !existsSync(join(dir, name))) cpSync(join(deps!, name), join(dir, name));
  symlinkSync(join(deps!, "node_modules"), join(dir, "node_modules"));
}

/** A copy of the fixture with ctxinject installed the way the README says (npm left to the cache unless `install`). */
function project(options: { install?: boolean; prepare?: (root: string) => void } = {}): string {
  const root = materialize("claude-host");
  options.prepare?.(root);
  installInProject(root);
  const init = runCli(["init", "--opencode", ...(options.install ? [] : ["--no-install"])], { cwd: root });
  assert.is(init.status, 0, init.stderr);
  if (!options.install) provideDependencies(join(root, ".opencode"));
  return root;
}

const run = (prompt: string, ...more: string[]): Run => ({ args: ["run", prompt, ...more] });
const toolNames = (r: Recorded) => ((r.body?.tools ?? []) as Array<{ function: { name: string } }>).map((t) => t.function.name);

const suite = hostSuite(found, deps !== null);

suite("installed by init --opencode (npm included), the first run starts offline at once and a prompt naming a file brings its rules", () => {
  const root = project({ install: true });
  const out = opencode(root, [{ text: "ok" }], [run("fix the retry in src/net/client.ts")], { deps: true });
  assert.ok(out.runs[0]!.ms < 45_000, `opencode waited ${out.runs[0]!.ms} ms (it tried to install its plugin package)`);
  const body = lastAgentTurn(out);
  assert.is(count(body, "MARK-NET-RULE"), 1, "the file's rule arrives with the prompt, once");
  assert.is(count(body, "MARK-AGENTS-ROOT"), 1, "the root AGENTS.md, which opencode loads itself, once");
  assert.is(count(body, "MARK-ROOT-CURSORRULES"), 1, "an always-on rule arrives with the first prompt");
});

suite("what arrives with the prompt stays for the rest of the conversation", () => {
  const root = project();
  const out = opencode(
    root,
    [
      { tool: { name: "read", input: { filePath: join(root, "web/page.tsx") } } },
      { tool: { name: "read", input: { filePath: join(root, "src/net/client.ts") } } },
      { text: "ok" },
    ],
    [run("fix the retry in src/net/client.ts")],
  );
  const turns = agentTurns(out);
  assert.is(turns.length, 3);
  for (const turn of turns) assert.is(count(JSON.stringify(turn.body), "MARK-NET-RULE"), 1, "in every request, once");
  assert.is(count(lastAgentTurn(out), "MARK-CLAUDE-PATHS"), 1, "the read file's rule stays too");
});

suite("instructions in the project's opencode.json: opencode loads CONVENTIONS.md, and ctxinject does not add a second copy", () => {
  const root = project({
    prepare: (r) => {
      writeFileSync(join(r, "CONVENTIONS.md"), "Dates are stored in UTC. (MARK-CONVENTIONS)\n");
      writeFileSync(join(r, "opencode.json"), JSON.stringify({ instructions: ["CONVENTIONS.md"] }));
    },
  });
  // The control: with the host's own files included, the text arrives twice — so opencode itself loaded one.
  writeFileSync(join(root, ".ctxinjectrc.json"), JSON.stringify({ opencode: { includeNative: true } }));
  assert.is(count(lastAgentTurn(opencode(root, [{ text: "ok" }], [run("hello")])), "MARK-CONVENTIONS"), 2);
  writeFileSync(join(root, ".ctxinjectrc.json"), "{}");
  assert.is(count(lastAgentTurn(opencode(root, [{ text: "ok" }], [run("hello")])), "MARK-CONVENTIONS"), 1);
});

suite("a read of a nested file: its rules once, and its AGENTS.md once (opencode adds it to the read result itself)", () => {
  const root = project();
  const out = opencode(
    root,
    [{ tool: { name: "read", input: { filePath: join(root, "packages/api/src/handler.ts") } } }, { text: "ok" }],
    [run("what does the handler do?")],
  );
  const body = lastAgentTurn(out);
  assert.is(count(body, "MARK-API-RULE"), 1);
  assert.is(count(body, "MARK-API-AGENTS"), 1);
});

suite("a prompt naming a nested file, then a read of it: the AGENTS.md opencode adds to the read result arrives once (not also with the prompt)", () => {
  const root = project();
  const out = opencode(
    root,
    [{ tool: { name: "read", input: { filePath: join(root, "packages/api/src/handler.ts") } } }, { text: "ok" }],
    [run("fix the bug in packages/api/src/handler.ts")],
  );
  const body = lastAgentTurn(out);
  assert.match(body, "export function handle", "opencode ran the read");
  assert.is(count(body, "MARK-API-AGENTS"), 1);
  assert.is(count(body, "MARK-API-RULE"), 1, "the file's rule, with the prompt");
});

suite("a write of a nested file (opencode adds nothing on write): its AGENTS.md and rules arrive from ctxinject", () => {
  const root = project();
  const out = opencode(
    root,
    [{ tool: { name: "write", input: { filePath: join(root, "packages/api/src/routes.ts"), content: "export {};\n" } } }, { text: "ok" }],
    [run("add a routes file")],
  );
  const body = lastAgentTurn(out);
  assert.is(count(body, "MARK-API-RULE"), 1);
  assert.is(count(body, "MARK-API-AGENTS"), 1);
});

suite("apply_patch (the edit tool opencode gives GPT models): the patched file's rules arrive", () => {
  const root = project();
  const patch = [
    "*** Begin Patch",
    "*** Update File: src/net/client.ts",
    "@@",
    "-export const client = {};",
    "+export const client = { retries: 3 };",
    "*** End Patch",
  ].join("\n");
  const out = opencode(root, [{ tool: { name: "apply_patch", input: { patchText: patch } } }, { text: "ok" }], [run("bump the constant", "-m", GPT)]);
  assert.ok(toolNames(agentTurns(out)[0]!).includes("apply_patch"), `opencode offered ${toolNames(agentTurns(out)[0]!).join(", ")}`);
  assert.is(count(lastAgentTurn(out), "MARK-NET-RULE"), 1);
});

testUnless(!onPath("rg") && "no ripgrep on PATH (opencode's grep runs rg; test/lanes/setup.sh installs it)", suite)(
  "grep results: the files it lists bring their rules",
  () => {
    const root = project();
    const out = opencode(root, [{ tool: { name: "grep", input: { pattern: "export function handle" } } }, { text: "ok" }], [run("where is h defined?")]);
    assert.is(count(lastAgentTurn(out), "MARK-API-RULE"), 1);
  },
);

suite("a file attached with -f brings its rules with the prompt", () => {
  const root = project();
  const out = opencode(root, [{ text: "ok" }], [run("what is this?", "-f", "src/net/client.ts")]);
  assert.is(count(lastAgentTurn(out), "MARK-NET-RULE"), 1);
});

suite("a second prompt in the same session repeats nothing", () => {
  const root = project();
  const out = opencode(
    root,
    [{ text: "one" }, { text: "two" }],
    [run("fix the retry in src/net/client.ts", "--format", "json"), run("and src/net/client.ts again", "--session", "{{SESSION}}")],
  );
  const body = lastAgentTurn(out);
  assert.match(body, "and src/net/client.ts again");
  assert.is(count(body, "MARK-NET-RULE"), 1);
  assert.is(count(body, "MARK-ROOT-CURSORRULES"), 1);
});

suite("ctxinject register --session <opencode session> reaches the conversation", () => {
  const root = project();
  const out = opencode(
    root,
    [{ text: "one" }, { text: "two" }],
    [
      run("hello", "--format", "json"),
      {
        command: process.execPath,
        args: [BIN, "register", "--session", "{{SESSION}}", "--source", "ci", "--id", "ci-status", "--content", "The nightly build is red. (MARK-REGISTERED)"],
      },
      run("what next?", "--session", "{{SESSION}}"),
    ],
  );
  assert.is(count(lastAgentTurn(out), "MARK-REGISTERED"), 1);
});

suite("a skill in .claude/skills arrives once (opencode lists it; the plugin does not send it again); one in .github/skills once, from the plugin", () => {
  const root = project({
    prepare: (r) => {
      writeSkill(r, ".claude/skills", "ledger-own", "MARK-SKILL-OWN");
      writeSkill(r, ".github/skills", "ledger-other", "MARK-SKILL-OTHER");
    },
  });
  const body = lastAgentTurn(opencode(root, [{ text: "ok" }], [run("reconcile the quarterly ledgers")]));
  assert.is(count(body, "MARK-SKILL-OWN-DESC"), 1, "opencode's own skill tool names it; the plugin adds nothing");
  assert.is(count(body, "MARK-SKILL-OWN-BODY"), 0);
  assert.is(count(body, "MARK-SKILL-OTHER-DESC"), 1, "a folder opencode does not read: the plugin's entry");
});

test.run();
