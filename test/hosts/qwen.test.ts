/**
 * The real Qwen Code CLI (pinned below), run inside `unshare -n` against the fake OpenAI-compatible API on
 * 127.0.0.1, with no ctxinject adapter yet: what it loads by itself, and which of its Claude-format hook events'
 * text reaches the model (a logging hook in the project's .qwen/settings.json). The facts behind PROFILES.md.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { count, lastAgentTurn, type Outcome, runScenario, workFolder, hostSuite } from "./harness.js";
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
import { QWEN_SETTINGS, QWEN_VERSION, qwenBinary } from "./qwen-cli.js";

const found = qwenBinary();
if ("skip" in found) console.log(`qwen host suite skipped: ${found.skip}`);
else console.log(`qwen host suite: Qwen Code ${QWEN_VERSION}`);

const EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"];

let probed: { out: Outcome; log: string; root: string } | undefined;
/** One run: a prompt whose agent reads a nested file, then answers. Shared by the cases below. */
function probe() {
  if (probed) return probed;
  const root = nativeProject();
  const work = workFolder("qwen");
  const log = join(work, "hooks.jsonl");
  mkdirSync(join(root, ".qwen"), { recursive: true });
  const hooks = Object.fromEntries(
    EVENTS.map((event) => [event, [{ matcher: "*", hooks: [{ type: "command", command: hookCommand(log, "claude", event), timeout: 20 }] }]]),
  );
  writeFileSync(join(root, ".qwen/settings.json"), JSON.stringify({ hooks }));
  const env = { OPENAI_API_KEY: "sk-fake-key-for-tests", OPENAI_BASE_URL: "{{API}}/v1", OPENAI_MODEL: "gpt-fake", QWEN_CODE_SUPPRESS_YOLO_WARNING: "1" };
  const files = { [join(work, "home/.qwen/settings.json")]: JSON.stringify(QWEN_SETTINGS) };
  const script = [{ tool: { name: "read_file", input: { file_path: join(root, NESTED_FILE) } } }, { text: "ok" }];
  const out = runScenario(
    work,
    { command: (found as { path: string }).path, cwd: root, env, files, script, runs: [{ args: ["what does the handler do?", "--yolo"] }] },
    "qwen",
  );
  return (probed = { out, log, root });
}

const suite = hostSuite(found);

suite("starts offline against the fake API and loads QWEN.md and AGENTS.md at the root, once each (not CLAUDE.md)", () => {
  assertMarkers(firstTurn(probe().out), [NATIVE.qwen, NATIVE.agents], [NATIVE.claude, NATIVE.gemini, NATIVE.copilot, NATIVE.cursor, NATIVE.apiAgents]);
});

suite("a read of a nested file adds nothing of its folder (no nested discovery)", () => {
  assertMarkers(lastAgentTurn(probe().out), [], [NATIVE.apiAgents, NATIVE.apiClaude]);
});

suite("SessionStart, UserPromptSubmit and PostToolUse text reach the model; PreToolUse's does not; UserPromptSubmit fires again with an empty prompt after the tool result", () => {
  const { out, log } = probe();
  const events = fired(log);
  for (const event of EVENTS)
    assert.ok(
      events.some((f) => f.event === event),
      `${event} fired`,
    );
  const first = firstTurn(out);
  const last = lastAgentTurn(out);
  assert.is(count(first, hookMarker("SessionStart")), 1);
  assert.is(count(first, hookMarker("UserPromptSubmit")), 1);
  assert.is(count(last, hookMarker("PostToolUse")), 1);
  assert.is(count(last, hookMarker("PreToolUse")), 0);
  const prompts = events.filter((f) => f.event === "UserPromptSubmit").map((f) => f.input!.prompt);
  assert.equal(prompts, ["what does the handler do?", ""]);
  assert.is(count(last, hookMarker("UserPromptSubmit")), 2, "the empty-prompt call's answer is added too");
});

suite("skills: it lists the name and description of those in .agents/skills, .qwen/skills by itself, not their bodies", () => {
  assertSkillsListed(probe().out, [".agents/skills", ".qwen/skills"]);
});

suite("ctxinject's qwen-code profile agrees with the host: what it says the host loads itself arrived once, the rest not at all", () => {
  const { out, root } = probe();
  assertProfileMatchesHost(out, root, "qwen-code");
});

test.run();
