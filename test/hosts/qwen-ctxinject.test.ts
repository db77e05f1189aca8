/**
 * The real Qwen Code CLI (pinned in versions.ts) with ctxinject installed by `ctxinject init --qwen`, run inside
 * `unshare -n` against the fake OpenAI-compatible API on 127.0.0.1: which marker texts reached the model, and how
 * many times. (qwen.test.ts, beside it, proves what Qwen Code loads itself and which hook events carry text.)
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { join } from "node:path";
import { materialize, runCli } from "../helpers/cli.js";
import { count, installInProject, lastAgentTurn, type Outcome, runScenario, workFolder, hostSuite } from "./harness.js";
import { QWEN_SETTINGS, QWEN_VERSION, qwenBinary } from "./qwen-cli.js";
import { assertMarkers } from "./probe.js";

const found = qwenBinary();
if ("skip" in found) console.log(`qwen (ctxinject installed) host suite skipped: ${found.skip}`);
else console.log(`qwen (ctxinject installed) host suite: Qwen Code ${QWEN_VERSION}`);

const SESSION = "3a9e5a52-7b1c-4f0e-9d3e-5c2b8f1a0e11";

/** A copy of fixtures/claude-host with ctxinject installed in it and `init --qwen` run, as the host page says. */
function project(): string {
  const root = materialize("claude-host");
  installInProject(root);
  const init = runCli(["init", "--qwen"], { cwd: root });
  assert.is(init.status, 0, init.stderr);
  return root;
}

let ran: { out: Outcome; root: string } | undefined;
/**
 * One session, two headless prompts: the first names a file and its agent reads a nested one, the second (resumed
 * by its id) names the same file again. Shared by the cases below.
 */
function session() {
  if (ran) return ran;
  const root = project();
  const work = workFolder("qwen");
  const env = { OPENAI_API_KEY: "sk-fake-key-for-tests", OPENAI_BASE_URL: "{{API}}/v1", OPENAI_MODEL: "gpt-fake", QWEN_CODE_SUPPRESS_YOLO_WARNING: "1" };
  const files = { [join(work, "home/.qwen/settings.json")]: JSON.stringify(QWEN_SETTINGS) };
  const script = [{ tool: { name: "read_file", input: { file_path: join(root, "packages/api/src/handler.ts") } } }, { text: "one" }, { text: "two" }];
  const runs = [
    { args: ["fix the retry in src/net/client.ts", "--yolo", "--session-id", SESSION] },
    { args: ["and now src/net/client.ts again", "--yolo", "--resume", SESSION] },
  ];
  const out = runScenario(work, { command: (found as { path: string }).path, cwd: root, env, files, script, runs }, "qwen");
  return (ran = { out, root });
}

/** The last agent request of the first prompt (before the second prompt's text is in the conversation). */
const firstPromptEnd = (out: Outcome) => lastAgentTurn(out, (r) => !JSON.stringify(r.body).includes("and now src/net/client.ts again"));

const suite = hostSuite(found);

suite("installed by init --qwen, a prompt naming a file brings that file's rules once", () => {
  assert.is(count(firstPromptEnd(session().out), "MARK-NET-RULE"), 1);
});

suite("what Qwen Code loads itself (the root AGENTS.md) arrives once; the root's other rules once", () => {
  const body = firstPromptEnd(session().out);
  assertMarkers(body, ["MARK-AGENTS-ROOT", "MARK-ROOT-CURSORRULES"], []);
});

suite("a read_file of a nested file brings its rules and nested AGENTS.md once (the empty prompt after the tool result adds nothing)", () => {
  const body = firstPromptEnd(session().out);
  assertMarkers(body, ["MARK-API-RULE", "MARK-API-AGENTS"], []);
});

suite("a second prompt in the same session (--resume) repeats nothing", () => {
  const body = lastAgentTurn(session().out);
  assert.match(body, "and now src/net/client.ts again");
  for (const marker of ["MARK-NET-RULE", "MARK-AGENTS-ROOT", "MARK-ROOT-CURSORRULES", "MARK-API-RULE", "MARK-API-AGENTS"])
    assert.is(count(body, marker), 1, marker);
});

test.run();
