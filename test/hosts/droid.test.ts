/**
 * The real Factory Droid CLI (pinned below; npm package `droid`), run inside `unshare -n` against the fake
 * OpenAI-compatible API on 127.0.0.1 (a custom model in ~/.factory/config.json), with no ctxinject adapter yet:
 * what it loads by itself, and which Claude-format hook events' text reaches the model in `droid exec` (a
 * logging hook in the project's .factory/settings.json). The facts behind PROFILES.md.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentTurns, count, lastAgentTurn, type Outcome, runScenario, type Scenario, workFolder, hostSuite } from "./harness.js";
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
import { DROID_ENV, DROID_MODELS, DROID_VERSION, droidBinary, droidRpcRun } from "./droid-cli.js";

const found = droidBinary();
if ("skip" in found) console.log(`droid host suite skipped: ${found.skip}`);
else console.log(`droid host suite: Factory Droid ${DROID_VERSION}`);

const EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"];

/** A project with the logging hook on every event, run by `run(root)`: a prompt whose agent reads a nested file, then answers. */
function probeWith(run: (root: string) => Scenario["runs"][number], script?: (root: string) => Scenario["script"]) {
  const root = nativeProject();
  const work = workFolder("droid");
  const log = join(work, "hooks.jsonl");
  mkdirSync(join(root, ".factory"), { recursive: true });
  const hooks = Object.fromEntries(
    EVENTS.map((event) => [event, [{ matcher: "*", hooks: [{ type: "command", command: hookCommand(log, "claude", event), timeout: 20 }] }]]),
  );
  writeFileSync(join(root, ".factory/settings.json"), JSON.stringify({ hooks }));
  const files = { [join(work, "home/.factory/config.json")]: JSON.stringify(DROID_MODELS) };
  const steps = script?.(root) ?? [{ tool: { name: "Read", input: { file_path: join(root, NESTED_FILE) } } }, { text: "ok" }];
  const out = runScenario(work, { command: (found as { path: string }).path, cwd: root, env: DROID_ENV, files, script: steps, runs: [run(root)] }, "droid");
  return { out, log, root };
}

let probed: { out: Outcome; log: string; root: string } | undefined;
/** One `droid exec` run. Shared by the cases below. */
const probe = () => (probed ??= probeWith(() => ({ args: ["exec", "-m", "custom:gpt-fake", "--auto", "high", "what does the handler do?"] })));

const FIRST = "what does the handler do?";
const SECOND = "and now the client?";
let rpc: { out: Outcome; log: string; root: string } | undefined;
/** One stream-jsonrpc session of two prompts, the first reading the nested file. */
const rpcProbe = () =>
  (rpc ??= probeWith(
    (root) => droidRpcRun(root, [FIRST, SECOND]),
    (root) => [{ when: SECOND, text: "two" }, { tool: { name: "Read", input: { file_path: join(root, NESTED_FILE) } } }, { text: "one" }],
  ));

const suite = hostSuite(found);

suite("starts offline against the fake API and loads AGENTS.md and CLAUDE.md at the root, once each", () => {
  assertMarkers(firstTurn(probe().out), [NATIVE.agents, NATIVE.claude], [NATIVE.qwen, NATIVE.gemini, NATIVE.copilot, NATIVE.cursor, NATIVE.apiAgents]);
});

suite("after a read of a nested file it adds that folder's AGENTS.md and CLAUDE.md itself, once", () => {
  assertMarkers(lastAgentTurn(probe().out), [NATIVE.apiAgents, NATIVE.apiClaude], []);
});

suite("in droid exec: SessionStart and PostToolUse text reach the model; PreToolUse's does not; UserPromptSubmit does not fire", () => {
  const { out, log } = probe();
  const events = fired(log).map((f) => f.event);
  for (const event of ["SessionStart", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"])
    assert.ok(events.includes(event), `${event} fired (fired: ${events.join(", ")})`);
  assert.not.ok(events.includes("UserPromptSubmit"), "UserPromptSubmit runs only in the stream-jsonrpc mode");
  const first = firstTurn(out);
  const last = lastAgentTurn(out);
  assert.is(count(first, hookMarker("SessionStart")), 1);
  assert.is(count(last, hookMarker("PostToolUse")), 1);
  assert.is(count(last, hookMarker("PreToolUse")), 0);
});

suite("in stream-jsonrpc (an editor's headless session): UserPromptSubmit fires for each prompt and its text reaches that prompt's request, once", () => {
  const { out, log } = rpcProbe();
  const prompts = fired(log).filter((f) => f.event === "UserPromptSubmit");
  assert.equal(
    prompts.map((f) => (f.input as { prompt?: string } | null)?.prompt),
    [FIRST, SECOND],
  );
  const turns = agentTurns(out);
  assert.is(count(JSON.stringify(turns[0]?.body ?? {}), hookMarker("UserPromptSubmit")), 1, "with the first prompt");
  const last = lastAgentTurn(out);
  assert.match(last, FIRST, "the second prompt continued the first one's session");
  assert.is(count(last, hookMarker("UserPromptSubmit")), 2, "one for each prompt, each kept");
  assert.is(count(last, hookMarker("SessionStart")), 1, "SessionStart once for the session");
});

suite("in stream-jsonrpc: after a read of a nested file it adds that folder's AGENTS.md and CLAUDE.md itself, once, as in droid exec", () => {
  assertMarkers(lastAgentTurn(rpcProbe().out), [NATIVE.apiAgents, NATIVE.apiClaude], []);
});

suite("skills: it lists the name and description of those in .agents/skills, .factory/skills by itself, not their bodies", () => {
  assertSkillsListed(probe().out, [".agents/skills", ".factory/skills"]);
});

suite("ctxinject's droid profile agrees with the host: what it says the host loads itself arrived once, the rest not at all", () => {
  const { out, root } = probe();
  assertProfileMatchesHost(out, root, "droid");
});

test.run();
