/**
 * The real GitHub Copilot CLI (pinned below), run inside `unshare -n` against the fake OpenAI-compatible API on
 * 127.0.0.1, with no ctxinject adapter yet: what it loads by itself, and which of its hook events' text reaches
 * the model (a logging hook in the repository's .github/hooks). The facts behind test/hosts/PROFILES.md.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { count, HOSTS_CACHE, installHost, lastAgentTurn, type Outcome, runScenario, workFolder, hostSuite } from "./harness.js";
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
export const COPILOT_VERSION = HOST_VERSIONS["copilot-cli"];

/** The CLI unpacks ~235 MB into XDG_CACHE_HOME on first start; one shared unpack instead of one per HOME. */
const UNPACK = join(HOSTS_CACHE, `copilot-unpack-${COPILOT_VERSION}`);
const found = installHost({
  name: "@github/copilot",
  version: COPILOT_VERSION,
  binary: "@github/copilot/npm-loader.js",
  versionArgs: ["--version"],
  env: { XDG_CACHE_HOME: UNPACK },
});
if ("skip" in found) console.log(`copilot host suite skipped: ${found.skip}`);
else console.log(`copilot host suite: Copilot CLI ${COPILOT_VERSION}`);

const EVENTS = ["sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse", "agentStop", "sessionEnd"];

let probed: { out: Outcome; log: string; root: string } | undefined;
/** One run: a prompt whose agent reads a nested file, then answers. Shared by the cases below (each run costs seconds). */
function probe() {
  if (probed) return probed;
  const root = nativeProject();
  const work = workFolder("copilot");
  const log = join(work, "hooks.jsonl");
  mkdirSync(join(root, ".github/hooks"), { recursive: true });
  const hooks = Object.fromEntries(EVENTS.map((event) => [event, [{ type: "command", bash: hookCommand(log, "copilot", event), timeoutSec: 20 }]]));
  writeFileSync(join(root, ".github/hooks/probe.json"), JSON.stringify({ version: 1, hooks }));
  const env = {
    COPILOT_PROVIDER_BASE_URL: "{{API}}/v1",
    COPILOT_PROVIDER_TYPE: "openai",
    COPILOT_PROVIDER_API_KEY: "sk-fake-key-for-tests",
    COPILOT_MODEL: "gpt-fake",
    COPILOT_OFFLINE: "true",
    COPILOT_AUTO_UPDATE: "false",
    XDG_CACHE_HOME: UNPACK,
  };
  // Repository hooks run only in a trusted folder.
  const files = { [join(work, "home/.copilot/config.json")]: JSON.stringify({ trustedFolders: [root] }) };
  const script = [{ tool: { name: "view", input: { path: join(root, NESTED_FILE) } } }, { text: "ok" }];
  const out = runScenario(
    work,
    { command: (found as { path: string }).path, cwd: root, env, files, script, runs: [{ args: ["-p", "what does the handler do?", "--allow-all-tools"] }] },
    "copilot",
  );
  return (probed = { out, log, root });
}

const suite = hostSuite(found);

suite("starts offline against the fake API and loads AGENTS.md, CLAUDE.md, GEMINI.md and copilot-instructions.md at the root, once each", () => {
  assertMarkers(
    firstTurn(probe().out),
    [NATIVE.agents, NATIVE.claude, NATIVE.gemini, NATIVE.copilot],
    [NATIVE.qwen, NATIVE.cursor, NATIVE.clinerules, NATIVE.kiloRules, NATIVE.apiAgents, NATIVE.copilotScoped],
  );
});

suite("after a read of a nested file it adds that folder's AGENTS.md, CLAUDE.md and GEMINI.md and the scoped .github/instructions file itself, once", () => {
  assertMarkers(lastAgentTurn(probe().out), [NATIVE.apiAgents, NATIVE.apiClaude, NATIVE.apiGemini, NATIVE.copilotScoped, NATIVE.agents], []);
});

suite("repository hooks fire in a trusted folder: sessionStart, userPromptSubmitted, preToolUse and postToolUse text reach the model", () => {
  const { out, log } = probe();
  const events = fired(log).map((f) => f.event);
  for (const event of EVENTS) assert.ok(events.includes(event), `${event} fired (fired: ${events.join(", ")})`);
  const [first, last] = [firstTurn(out), lastAgentTurn(out)];
  assert.is(count(first, hookMarker("sessionStart")), 1);
  assert.is(count(first, hookMarker("userPromptSubmitted")), 1);
  assert.is(count(last, hookMarker("preToolUse")), 1);
  assert.is(count(last, hookMarker("postToolUse")), 1);
  const prompt = fired(log).find((f) => f.event === "userPromptSubmitted")!.input!;
  assert.is(prompt.prompt, "what does the handler do?");
  const post = fired(log).find((f) => f.event === "postToolUse")!.input!;
  assert.is((post.toolArgs as { path: string }).path.endsWith(NESTED_FILE), true);
});

suite("skills: it lists the name and description of those in .claude/skills, .agents/skills, .github/skills by itself, not their bodies", () => {
  assertSkillsListed(probe().out, [".claude/skills", ".agents/skills", ".github/skills"]);
});

suite("ctxinject's copilot-cli profile agrees with the host: what it says the host loads itself arrived once, the rest not at all", () => {
  const { out, root } = probe();
  assertProfileMatchesHost(out, root, "copilot-cli");
});

test.run();
