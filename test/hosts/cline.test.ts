/**
 * The real Cline CLI (pinned below), run inside `unshare -n` against the fake OpenAI-compatible API on 127.0.0.1
 * (a provider in its --data-dir), with no ctxinject adapter yet: what it loads by itself, which hook executables in
 * .clinerules/hooks fire and whose text reaches the model, and what a project plugin in .cline/plugins can add.
 * The facts behind PROFILES.md.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../helpers/cli.js";
import { agentTurns, count, installHost, installInProject, lastAgentTurn, type Outcome, runScenario, workFolder, hostSuite } from "./harness.js";
import {
  assertMarkers,
  assertProfileMatchesHost,
  assertSkillsListed,
  firstTurn,
  fired,
  hookCommand,
  hookMarker,
  NATIVE,
  NESTED_FILE,
  nativeProject,
} from "./probe.js";
import { HOST_VERSIONS } from "./versions.js";

/** Pinned in versions.ts, with every other host. */
export const CLINE_VERSION = HOST_VERSIONS.cline;

const found = installHost({ name: "cline", version: CLINE_VERSION, binary: "cline/bin/cline", versionArgs: ["--version"] });
if ("skip" in found) console.log(`cline host suite skipped: ${found.skip}`);
else console.log(`cline host suite: Cline CLI ${CLINE_VERSION}`);

const EVENTS = ["TaskStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "TaskComplete"];
const PROVIDERS = {
  version: 1,
  lastUsedProvider: "openai-compatible",
  providers: {
    "openai-compatible": {
      settings: { provider: "openai-compatible", apiKey: "sk-fake-key-for-tests", model: "gpt-fake", baseUrl: "{{API}}/v1" },
      updatedAt: "2026-01-01T00:00:00.000Z",
      tokenSource: "manual",
    },
  },
};

/** A project plugin that logs its hooks and adds a marker before the run and after each tool. */
const plugin = (log: string) => `import { appendFileSync } from "node:fs";
const log = (event, value) => appendFileSync(${JSON.stringify(log)}, JSON.stringify({ event, input: value }) + "\\n");
export default {
  name: "probe",
  manifest: { capabilities: ["hooks"] },
  hooks: {
    beforeRun(ctx) { log("plugin.beforeRun", { messages: ctx.snapshot?.messages?.length }); return { appendContext: "Probe plugin context. (MARK-HOOK-plugin.beforeRun)" }; },
    afterTool(ctx) { log("plugin.afterTool", { tool: ctx.toolCall?.toolName, input: ctx.input }); return { appendContext: "Probe plugin context. (MARK-HOOK-plugin.afterTool)" }; },
  },
};
`;

let probed: { out: Outcome; log: string; root: string } | undefined;
/** One headless run: a prompt whose agent reads a nested file, then answers. Shared by the cases below. */
function probe() {
  if (probed) return probed;
  const root = nativeProject();
  const work = workFolder("cline");
  const log = join(work, "hooks.jsonl");
  mkdirSync(join(root, ".clinerules/hooks"), { recursive: true });
  for (const event of EVENTS) {
    writeFileSync(join(root, ".clinerules/hooks", event), `#!/bin/sh\nexec ${hookCommand(log, "cline", event)}\n`);
    chmodSync(join(root, ".clinerules/hooks", event), 0o755);
  }
  mkdirSync(join(root, ".cline/plugins"), { recursive: true });
  writeFileSync(join(root, ".cline/plugins/probe.js"), plugin(log));
  // Always --data-dir: without it a hub daemon stays behind in ~/.cline.
  const data = join(work, "data");
  const files = { [join(data, "settings/providers.json")]: JSON.stringify(PROVIDERS) };
  const script = [{ tool: { name: "read_files", input: { file_paths: [join(root, NESTED_FILE)] } } }, { text: "ok" }];
  const out = runScenario(
    work,
    {
      command: (found as { path: string }).path,
      cwd: root,
      env: {},
      files,
      script,
      runs: [{ args: ["--data-dir", data, "--json", "what does the handler do?"] }],
    },
    "cline",
  );
  return (probed = { out, log, root });
}

const suite = hostSuite(found);

suite("starts offline against the fake API and loads AGENTS.md and .clinerules at the root, once each (not CLAUDE.md)", () => {
  assertMarkers(firstTurn(probe().out), [NATIVE.agents, NATIVE.clinerules], [NATIVE.claude, NATIVE.qwen, NATIVE.copilot, NATIVE.cursor, NATIVE.apiAgents]);
});

suite("a read of a nested file adds nothing of its folder (no nested discovery)", () => {
  assertMarkers(lastAgentTurn(probe().out), [], [NATIVE.apiAgents, NATIVE.apiClaude]);
});

suite("hooks: TaskStart, PreToolUse, PostToolUse and TaskComplete fire headless, UserPromptSubmit does not; PreToolUse's text reaches the model", () => {
  const { out, log } = probe();
  const events = fired(log).map((f) => f.event);
  for (const event of ["TaskStart", "PreToolUse", "PostToolUse", "TaskComplete"])
    assert.ok(events.includes(event), `${event} fired (fired: ${events.join(", ")})`);
  assert.not.ok(events.includes("UserPromptSubmit"));
  assert.is(count(firstTurn(out), hookMarker("TaskStart")), 0, "TaskStart is not awaited");
  assert.is(count(lastAgentTurn(out), hookMarker("PreToolUse")), 1);
});

suite("a project plugin: beforeRun's appendContext reaches the first request, afterTool's the next one (and replaces the PostToolUse hook's text)", () => {
  const { out, log } = probe();
  const events = fired(log).map((f) => f.event);
  assert.ok(events.includes("plugin.beforeRun") && events.includes("plugin.afterTool"), events.join(", "));
  assert.is(count(firstTurn(out), hookMarker("plugin.beforeRun")), 1);
  const last = lastAgentTurn(out);
  assert.is(count(last, hookMarker("plugin.afterTool")), 1);
  assert.is(count(last, hookMarker("PostToolUse")), 0, "one PostToolUse context per tool call: the plugin's wins");
});

suite("skills: none of the skills folders reaches the model unasked", () => {
  assertSkillsListed(probe().out, []);
});

suite("ctxinject's cline profile agrees with the host: what it says the host loads itself arrived once, the rest not at all", () => {
  const { out, root } = probe();
  assertProfileMatchesHost(out, root, "cline");
});

let adapted: { first: Outcome } | undefined;
/**
 * ctxinject installed by `init --cline` (the project's own install): a prompt naming src/client.ts, whose rule
 * (MARK-C-CLIENT) only ctxinject sends; the main agent reads the nested handler, then spawns a subagent whose task
 * names src/client.ts again.
 */
function adapter() {
  if (adapted) return adapted;
  const root = nativeProject();
  installInProject(root);
  writeFileSync(join(root, ".cursor/rules/client.mdc"), `---\nglobs: "src/client.ts"\n---\nThe client retries with backoff. (MARK-C-CLIENT)\n`);
  const init = runCli(["init", "--cline"], { cwd: root });
  assert.is(init.status, 0, init.stderr);
  const work = workFolder("cline");
  const data = join(work, "data");
  const files = { [join(data, "settings/providers.json")]: JSON.stringify(PROVIDERS) };
  const scenario = (script: Array<Record<string, unknown>>, args: string[]) => ({
    command: (found as { path: string }).path,
    cwd: root,
    env: { CTXINJECT_STATE_DIR: join(work, "state") },
    files,
    script,
    runs: [{ args: ["--data-dir", data, "--json", ...args] }],
  });
  const first = runScenario(
    work,
    scenario(
      [
        { tool: { name: "read_files", input: { file_paths: [join(root, NESTED_FILE)] } } },
        { tool: { name: "spawn_agent", input: { systemPrompt: "You are a helper.", task: "SUBTASK: explain src/client.ts" } } },
        { when: "SUBTASK", text: "sub done" },
        { text: "ok" },
      ],
      ["fix the retry in src/client.ts"],
    ),
    "cline",
  );
  return (adapted = { first });
}

const isSub = (r: { body: unknown }) => JSON.stringify(r.body).includes("SUBTASK: explain");
const mainTurns = (out: Outcome) => agentTurns(out, (r) => !JSON.stringify(r.body).includes("You are a helper."));

suite("init --cline: a prompt naming a file brings its rules once; AGENTS.md and .clinerules arrive once (Cline's own)", () => {
  const first = JSON.stringify(mainTurns(adapter().first)[0]?.body ?? {});
  assert.is(count(first, "MARK-C-CLIENT"), 1);
  assert.is(count(first, NATIVE.agents), 1);
  assert.is(count(first, NATIVE.clinerules), 1);
});

suite("init --cline: the read of a nested file brings its rules and nested AGENTS.md once", () => {
  const turns = mainTurns(adapter().first);
  const afterRead = JSON.stringify(turns[1]?.body ?? {});
  assert.is(count(afterRead, NATIVE.apiAgents), 1);
  assert.is(count(afterRead, NATIVE.copilotScoped), 1);
  const last = JSON.stringify(turns.at(-1)?.body ?? {});
  for (const marker of [NATIVE.apiAgents, "MARK-C-CLIENT", NATIVE.agents, NATIVE.clinerules]) assert.is(count(last, marker), 1, marker);
});

suite("init --cline: a subagent gets its own rules (its task names src/client.ts), once", () => {
  const sub = agentTurns(adapter().first, isSub).filter((r) => JSON.stringify(r.body).includes("You are a helper."));
  assert.ok(sub.length > 0, "the subagent ran");
  assert.is(count(JSON.stringify(sub[0]!.body), "MARK-C-CLIENT"), 1);
});

// A second prompt in the same session is not tested: headless Cline 3.0.65 refuses `--json --id <session>` with a
// prompt as argument or on stdin ("JSON output mode requires a prompt argument or piped stdin").

test.run();
