/**
 * The real Factory Droid CLI (pinned in versions.ts) with ctxinject installed by `ctxinject init --droid`, run in
 * `droid exec` inside `unshare -n` against the fake OpenAI-compatible API on 127.0.0.1: which marker texts reached
 * the model, and how many times. (droid.test.ts, beside it, proves what Droid loads itself and which hook events
 * carry text.) `droid exec` fires no UserPromptSubmit: a prompt's own file names bring nothing until a tool touches
 * the file. A second prompt in the same session is not proven: `droid exec -s <id>` exits 1 offline without a word,
 * with or without ctxinject's hooks (0.215.0), so the suite cannot continue a session headless.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { join } from "node:path";
import { materialize, runCli } from "../helpers/cli.js";
import { installHost, installInProject, lastAgentTurn, type Outcome, runScenario, workFolder, hostSuite } from "./harness.js";
import { HOST_VERSIONS } from "./versions.js";
import { assertMarkers } from "./probe.js";

const VERSION = HOST_VERSIONS.droid;
const found = installHost({ name: "droid", version: VERSION, binary: "droid/bin/droid", versionArgs: ["--version"] });
if ("skip" in found) console.log(`droid (ctxinject installed) host suite skipped: ${found.skip}`);
else console.log(`droid (ctxinject installed) host suite: Factory Droid ${VERSION}`);

const MODELS = { custom_models: [{ model_display_name: "Fake", model: "gpt-fake", base_url: "{{API}}/v1", api_key: "sk-fake-key-for-tests", provider: "generic-chat-completion-api", max_tokens: 4096 }] };

let ran: { out: Outcome; root: string } | undefined;
/** One `droid exec` prompt whose agent reads a nested file. Shared by the cases below. */
function session() {
  if (ran) return ran;
  const root = materialize("claude-host");
  installInProject(root);
  const init = runCli(["init", "--droid"], { cwd: root });
  assert.is(init.status, 0, init.stderr);
  const work = workFolder("droid");
  const env = { FACTORY_DROID_AUTO_UPDATE_ENABLED: "false" };
  const files = { [join(work, "home/.factory/config.json")]: JSON.stringify(MODELS) };
  const read = { tool: { name: "Read", input: { file_path: join(root, "packages/api/src/handler.ts") } } };
  const script = [read, { text: "one" }];
  const runs = [{ args: ["exec", "-m", "custom:gpt-fake", "--auto", "high", "what does the handler do?"] }];
  const out = runScenario(work, { command: (found as { path: string }).path, cwd: root, env, files, script, runs }, "droid");
  return (ran = { out, root });
}

const suite = hostSuite(found);

suite("installed by init --droid, SessionStart brings the root rules once; the root AGENTS.md Droid loads itself arrives once", () => {
  const body = lastAgentTurn(session().out);
  assertMarkers(body, ["MARK-ROOT-CURSORRULES", "MARK-AGENTS-ROOT"], []);
});

suite("a Read of a nested file brings its rules once, and its AGENTS.md once (Droid's own)", () => {
  const body = lastAgentTurn(session().out);
  assertMarkers(body, ["MARK-API-RULE", "MARK-API-AGENTS"], []);
});

test.run();
