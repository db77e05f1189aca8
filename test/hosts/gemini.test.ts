/**
 * The real Gemini CLI (pinned below), run inside `unshare -n` against a fake Gemini API on 127.0.0.1
 * (GOOGLE_GEMINI_BASE_URL) that records every request, with ctxinject's hooks installed by `ctxinject init
 * --gemini`. Each case asserts on what reached the model: which marker texts, and how many times.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { materialize, runCli } from "../helpers/cli.js";
import { count, installHost, lastAgentTurn, type Outcome, type Recorded, runScenario, workFolder, writeSkill, installInProject, hostSuite } from "./harness.js";
import { HOST_VERSIONS } from "./versions.js";

/** Pinned in versions.ts, with every other host. */
export const GEMINI_VERSION = HOST_VERSIONS["gemini-cli"];

const found = installHost({ name: "@google/gemini-cli", version: GEMINI_VERSION, binary: "@google/gemini-cli/bundle/gemini.js", versionArgs: ["--version"] });
if ("skip" in found) console.log(`gemini host suite skipped: ${found.skip}`);
else console.log(`gemini host suite: Gemini CLI ${GEMINI_VERSION}`);

/** A model named outright: with "auto" the CLI first asks a small model to route, which the fake API cannot answer. */
const MODEL = "gemini-3.1-pro-preview";
const SETTINGS = {
  privacy: { usageStatisticsEnabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  telemetry: { enabled: false },
  security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
};

type Step = ({ text: string } | { tool: { name: string; input: Record<string, unknown> } }) & { when?: string; unless?: string };

/** Runs `gemini -p` once per prompt (a later prompt resumes the latest session) in one network namespace. */
function gemini(root: string, script: Step[], prompts: string[]): Outcome {
  const work = workFolder("gemini");
  const runs = prompts.map((prompt, i) => ({ args: ["-p", prompt, "-m", MODEL, "--yolo", ...(i > 0 ? ["--resume", "latest"] : [])] }));
  const env = {
    GOOGLE_GEMINI_BASE_URL: "{{API}}",
    GEMINI_API_KEY: "fake-key-for-tests",
    GEMINI_CLI_NO_RELAUNCH: "true",
    CTXINJECT_STATE_DIR: join(work, "state"),
  };
  const files = { [join(work, "home/.gemini/settings.json")]: JSON.stringify(SETTINGS) };
  return runScenario(
    work,
    { command: process.execPath, cwd: root, env, files, script, runs: runs.map((r) => ({ args: [(found as { path: string }).path, ...r.args] })) },
    "gemini",
  );
}

/** A copy of the fixture with GEMINI.md files and ctxinject's hooks installed the way the README says. */
function project(): string {
  const root = materialize("claude-host");
  writeFileSync(join(root, "GEMINI.md"), "Gemini notes for the whole project. (MARK-GEMINI-ROOT)\n");
  writeFileSync(join(root, "packages/api/GEMINI.md"), "Gemini notes for the API. (MARK-GEMINI-API)\n");
  installInProject(root);
  const init = runCli(["init", "--gemini"], { cwd: root });
  assert.is(init.status, 0, init.stderr);
  return root;
}

/** The named model's requests (Gemini CLI may also ask a small model on the side, e.g. to route). */
const forModel = (r: Recorded) => (r.url ?? "").includes(`${MODEL}:`);

const suite = hostSuite(found);

suite("installed by init --gemini, a prompt naming a file brings its rules once; GEMINI.md, which Gemini CLI loads, once", () => {
  const body = lastAgentTurn(gemini(project(), [{ text: "ok" }], ["fix the retry in src/net/client.ts"]), forModel);
  assert.is(count(body, "MARK-NET-RULE"), 1);
  assert.is(count(body, "MARK-AGENTS-ROOT"), 1, "AGENTS.md, which Gemini CLI does not read by default");
  assert.is(count(body, "MARK-GEMINI-ROOT"), 1);
});

suite("a read_file of a nested file: its rules and AGENTS.md once; its GEMINI.md once (Gemini CLI adds it just in time)", () => {
  const body = lastAgentTurn(
    gemini(project(), [{ tool: { name: "read_file", input: { file_path: "packages/api/src/handler.ts" } } }, { text: "ok" }], ["what does the handler do?"]),
    forModel,
  );
  assert.is(count(body, "MARK-API-RULE"), 1);
  assert.is(count(body, "MARK-API-AGENTS"), 1);
  assert.is(count(body, "MARK-GEMINI-API"), 1);
});

suite("a write_file of a new nested file: its rules and AGENTS.md once, its folder's GEMINI.md once", () => {
  const body = lastAgentTurn(
    gemini(
      project(),
      [{ tool: { name: "write_file", input: { file_path: "packages/api/src/routes.ts", content: "export {};\n" } } }, { text: "ok" }],
      ["add a routes file"],
    ),
    forModel,
  );
  assert.is(count(body, "MARK-API-RULE"), 1);
  assert.is(count(body, "MARK-API-AGENTS"), 1);
  assert.is(count(body, "MARK-GEMINI-API"), 1);
  assert.is(count(body, "packages/api/GEMINI.md (normal)"), 0, "that copy is Gemini CLI's own, not ctxinject's");
});

suite("context.fileName naming AGENTS.md in the project's settings: Gemini CLI loads it, and ctxinject does not add a second copy", () => {
  const root = project();
  const settingsFile = join(root, ".gemini/settings.json");
  const settings = JSON.parse(readFileSync(settingsFile, "utf8"));
  writeFileSync(settingsFile, JSON.stringify({ ...settings, context: { fileName: ["AGENTS.md", "GEMINI.md"] } }, null, 2));
  // The control: with the host's own files included, the text arrives twice — so Gemini CLI itself loaded one.
  writeFileSync(join(root, ".ctxinjectrc.json"), JSON.stringify({ gemini: { includeNative: true } }));
  assert.is(count(lastAgentTurn(gemini(root, [{ text: "ok" }], ["hello"]), forModel), "MARK-AGENTS-ROOT"), 2);
  writeFileSync(join(root, ".ctxinjectrc.json"), "{}");
  const body = lastAgentTurn(gemini(root, [{ text: "ok" }], ["hello"]), forModel);
  assert.is(count(body, "MARK-AGENTS-ROOT"), 1);
  assert.is(count(body, "MARK-NET-RULE"), 0, "nothing named, nothing of the file's rules");
});

suite("a second prompt in the same session (--resume latest) repeats nothing (the hook server answers after the first call)", () => {
  const out = gemini(project(), [{ text: "one" }, { text: "two" }], ["fix the retry in src/net/client.ts", "and src/net/client.ts again"]);
  const body = lastAgentTurn(out, forModel);
  assert.match(body, "and src/net/client.ts again");
  assert.is(count(body, "MARK-NET-RULE"), 1);
  assert.is(count(body, "MARK-AGENTS-ROOT"), 1);
  // The first hook call answers itself and starts the hook server; the later calls are the server's.
  assert.ok(out.served.length >= 1, "the hook server answered the later calls");
  for (const line of out.served) assert.match(line, /: exit 0,/);
});

suite("a skill in .agents/skills arrives once (Gemini CLI lists it; the hook does not send it again); one in .claude/skills once, from the hook", () => {
  const root = project();
  writeSkill(root, ".agents/skills", "ledger-own", "MARK-SKILL-OWN");
  writeSkill(root, ".claude/skills", "ledger-other", "MARK-SKILL-OTHER");
  const body = lastAgentTurn(gemini(root, [{ text: "ok" }], ["reconcile the quarterly ledgers"]), forModel);
  assert.is(count(body, "MARK-SKILL-OWN-DESC"), 1, "Gemini CLI's own skill list names it; the hook adds nothing");
  assert.is(count(body, "MARK-SKILL-OWN-BODY"), 0);
  assert.is(count(body, "MARK-SKILL-OTHER-DESC"), 1, "a folder Gemini CLI does not read: the hook's entry");
});

test.run();
