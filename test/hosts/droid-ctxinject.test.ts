/**
 * The real Factory Droid CLI (pinned in versions.ts) with ctxinject installed by `ctxinject init --droid`, run in
 * `droid exec` inside `unshare -n` against the fake OpenAI-compatible API on 127.0.0.1: which marker texts reached
 * the model, and how many times; and in its stream-jsonrpc mode (the headless protocol editors drive it with), where
 * UserPromptSubmit fires, one session of two prompts. (droid.test.ts, beside it, proves what Droid loads itself and
 * which hook events carry text.) `droid exec` with the prompt as argument fires no UserPromptSubmit: there a
 * prompt's own file names bring nothing until a tool touches the file. `droid exec -s <id>` exits 1 offline without
 * a word, with or without ctxinject's hooks (0.215.0): a second prompt is proven in stream-jsonrpc only.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { join } from "node:path";
import { materialize, runCli } from "../helpers/cli.js";
import { agentTurns, count, installInProject, lastAgentTurn, type Outcome, runScenario, type Scenario, workFolder, hostSuite } from "./harness.js";
import { assertMarkers } from "./probe.js";
import { DROID_ENV, DROID_MODELS, DROID_VERSION, droidBinary, droidRpcRun } from "./droid-cli.js";

const found = droidBinary();
if ("skip" in found) console.log(`droid (ctxinject installed) host suite skipped: ${found.skip}`);
else console.log(`droid (ctxinject installed) host suite: Factory Droid ${DROID_VERSION}`);

const HANDLER = "packages/api/src/handler.ts";

/** A copy of claude-host with ctxinject installed by `init --droid`, run as `run(root)` with the fake API's `script(root)`. */
function withCtxinject(run: (root: string) => Scenario["runs"][number], script: (root: string) => Scenario["script"]): Outcome {
  const root = materialize("claude-host");
  installInProject(root);
  const init = runCli(["init", "--droid"], { cwd: root });
  assert.is(init.status, 0, init.stderr);
  const work = workFolder("droid");
  const files = { [join(work, "home/.factory/config.json")]: JSON.stringify(DROID_MODELS) };
  const env = { ...DROID_ENV, CTXINJECT_STATE_DIR: join(work, "state") };
  return runScenario(work, { command: (found as { path: string }).path, cwd: root, env, files, script: script(root), runs: [run(root)] }, "droid");
}

const read = (root: string) => ({ tool: { name: "Read", input: { file_path: join(root, HANDLER) } } });

let ran: { out: Outcome } | undefined;
/** One `droid exec` prompt whose agent reads a nested file. Shared by the cases below. */
const session = () =>
  (ran ??= {
    out: withCtxinject(
      () => ({ args: ["exec", "-m", "custom:gpt-fake", "--auto", "high", "what does the handler do?"] }),
      (root) => [read(root), { text: "one" }],
    ),
  });

const FIRST = `fix the bug in ${HANDLER}`;
const SECOND = "and the retry in src/net/client.ts";
let rpc: Outcome | undefined;
/** A stream-jsonrpc session: the first prompt names the nested handler, which the agent reads; the second names another file. */
const rpcSession = () =>
  (rpc ??= withCtxinject(
    (root) => droidRpcRun(root, [FIRST, SECOND]),
    (root) => [{ when: SECOND, text: "two" }, read(root), { text: "one" }],
  ));
const secondPrompt = (out: Outcome) => agentTurns(out, (r) => JSON.stringify(r.body).includes(SECOND));

const suite = hostSuite(found);

suite("installed by init --droid, SessionStart brings the root rules once; the root AGENTS.md Droid loads itself arrives once", () => {
  const body = lastAgentTurn(session().out);
  assertMarkers(body, ["MARK-ROOT-CURSORRULES", "MARK-AGENTS-ROOT"], []);
});

suite("a Read of a nested file brings its rules once, and its AGENTS.md once (Droid's own)", () => {
  const body = lastAgentTurn(session().out);
  assertMarkers(body, ["MARK-API-RULE", "MARK-API-AGENTS"], []);
});

suite("stream-jsonrpc: a prompt naming a nested file brings its rules with that prompt, once (UserPromptSubmit)", () => {
  const first = JSON.stringify(agentTurns(rpcSession())[0]?.body ?? {});
  assert.match(first, FIRST);
  assert.is(count(first, "MARK-API-RULE"), 1);
  assert.is(count(first, "MARK-ROOT-CURSORRULES"), 1);
});

suite("stream-jsonrpc: the agent then reads that file: its AGENTS.md arrives once (Droid appends it to the read), not also with the prompt", () => {
  const turns = agentTurns(rpcSession(), (r) => !JSON.stringify(r.body).includes(SECOND));
  const body = JSON.stringify(turns.at(-1)?.body ?? {});
  assert.match(body, "export function handle", "Droid ran the read");
  assert.is(count(body, "MARK-API-AGENTS"), 1);
  assert.is(count(body, "MARK-API-RULE"), 1);
});

suite("stream-jsonrpc: a second prompt in the session brings its own file's rules once and repeats nothing", () => {
  const body = JSON.stringify(secondPrompt(rpcSession())[0]?.body ?? {});
  assert.match(body, FIRST, "the second prompt continued the first one's session");
  for (const marker of ["MARK-NET-RULE", "MARK-API-RULE", "MARK-API-AGENTS", "MARK-ROOT-CURSORRULES", "MARK-AGENTS-ROOT"])
    assert.is(count(body, marker), 1, marker);
});

test.run();
