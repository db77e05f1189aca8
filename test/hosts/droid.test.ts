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
import { count, installHost, lastAgentTurn, type Outcome, runScenario, workFolder, hostSuite } from "./harness.js";
import { assertMarkers, assertProfileMatchesHost, assertSkillsListed, firstTurn, fired, hookCommand, hookMarker, NATIVE, NESTED_FILE, nativeProject } from "./probe.js";
import { HOST_VERSIONS } from "./versions.js";

/** Pinned in versions.ts, with every other host. */
export const DROID_VERSION = HOST_VERSIONS.droid;

const found = installHost({ name: "droid", version: DROID_VERSION, binary: "droid/bin/droid", versionArgs: ["--version"] });
if ("skip" in found) console.log(`droid host suite skipped: ${found.skip}`);
else console.log(`droid host suite: Factory Droid ${DROID_VERSION}`);

const EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"];
const MODELS = { custom_models: [{ model_display_name: "Fake", model: "gpt-fake", base_url: "{{API}}/v1", api_key: "sk-fake-key-for-tests", provider: "generic-chat-completion-api", max_tokens: 4096 }] };

let probed: { out: Outcome; log: string; root: string } | undefined;
/** One `droid exec` run: a prompt whose agent reads a nested file, then answers. Shared by the cases below. */
function probe() {
  if (probed) return probed;
  const root = nativeProject();
  const work = workFolder("droid");
  const log = join(work, "hooks.jsonl");
  mkdirSync(join(root, ".factory"), { recursive: true });
  const hooks = Object.fromEntries(EVENTS.map((event) => [event, [{ matcher: "*", hooks: [{ type: "command", command: hookCommand(log, "claude", event), timeout: 20 }] }]]));
  writeFileSync(join(root, ".factory/settings.json"), JSON.stringify({ hooks }));
  const env = { FACTORY_DROID_AUTO_UPDATE_ENABLED: "false" };
  const files = { [join(work, "home/.factory/config.json")]: JSON.stringify(MODELS) };
  const script = [{ tool: { name: "Read", input: { file_path: join(root, NESTED_FILE) } } }, { text: "ok" }];
  const runs = [{ args: ["exec", "-m", "custom:gpt-fake", "--auto", "high", "what does the handler do?"] }];
  const out = runScenario(work, { command: (found as { path: string }).path, cwd: root, env, files, script, runs }, "droid");
  return (probed = { out, log, root });
}

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
  for (const event of ["SessionStart", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"]) assert.ok(events.includes(event), `${event} fired (fired: ${events.join(", ")})`);
  assert.not.ok(events.includes("UserPromptSubmit"), "UserPromptSubmit runs only in the stream-jsonrpc mode");
  const first = firstTurn(out);
  const last = lastAgentTurn(out);
  assert.is(count(first, hookMarker("SessionStart")), 1);
  assert.is(count(last, hookMarker("PostToolUse")), 1);
  assert.is(count(last, hookMarker("PreToolUse")), 0);
});

suite("skills: it lists the name and description of those in .agents/skills, .factory/skills by itself, not their bodies", () => {
  assertSkillsListed(probe().out, [".agents/skills", ".factory/skills"]);
});

suite("ctxinject's droid profile agrees with the host: what it says the host loads itself arrived once, the rest not at all", () => {
  const { out, root } = probe();
  assertProfileMatchesHost(out, root, "droid");
});

test.run();
