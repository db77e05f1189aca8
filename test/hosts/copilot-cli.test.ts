/**
 * The real GitHub Copilot CLI (pinned in versions.ts), run inside `unshare -n` against the fake OpenAI-compatible API
 * on 127.0.0.1 that records every request, with ctxinject installed by `ctxinject init --copilot` in a folder the
 * user trusts (Copilot CLI runs a repository's hooks nowhere else). Each case asserts on what reached the model:
 * which marker texts, and how many times. (copilot.test.ts holds what it loads without ctxinject.)
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { materialize, runCli } from "../helpers/cli.js";
import { agentTurns, count, HOSTS_CACHE, installHost, installInProject, lastAgentTurn, type Outcome, runScenario, workFolder, hostSuite } from "./harness.js";
import { NESTED_PATCH } from "./probe.js";
import { HOST_VERSIONS } from "./versions.js";

const VERSION = HOST_VERSIONS["copilot-cli"];
/** The CLI unpacks ~235 MB into XDG_CACHE_HOME on first start: one unpack shared with copilot.test.ts. */
const UNPACK = join(HOSTS_CACHE, `copilot-unpack-${VERSION}`);
const found = installHost({
  name: "@github/copilot",
  version: VERSION,
  binary: "@github/copilot/npm-loader.js",
  versionArgs: ["--version"],
  env: { XDG_CACHE_HOME: UNPACK },
});
if ("skip" in found) console.log(`copilot-cli host suite skipped: ${found.skip}`);
else console.log(`copilot-cli host suite: Copilot CLI ${VERSION}`);

type Step = ({ text: string } | { tool: { name: string; input: Record<string, unknown> | string } }) & { when?: string };

/**
 * The model Copilot CLI is told it talks to: a GPT model gets apply_patch to edit with, a Claude model (through the
 * Anthropic protocol) gets edit and create.
 */
const PROVIDERS = {
  openai: { COPILOT_PROVIDER_BASE_URL: "{{API}}/v1", COPILOT_PROVIDER_TYPE: "openai", COPILOT_MODEL: "gpt-fake" },
  anthropic: { COPILOT_PROVIDER_BASE_URL: "{{API}}", COPILOT_PROVIDER_TYPE: "anthropic", COPILOT_MODEL: "claude-sonnet-4.5" },
};

/** `copilot -p` once per prompt; a later prompt continues the first session (--continue). */
function copilot(root: string, script: Step[], prompts: string[], provider: keyof typeof PROVIDERS = "openai"): Outcome {
  const work = workFolder("copilot-cli");
  const env = {
    ...PROVIDERS[provider],
    COPILOT_PROVIDER_API_KEY: "sk-fake-key-for-tests",
    COPILOT_OFFLINE: "true",
    COPILOT_AUTO_UPDATE: "false",
    XDG_CACHE_HOME: UNPACK,
    CTXINJECT_STATE_DIR: join(work, "state"),
  };
  // The user trusts the project: the one place Copilot CLI runs .github/hooks.
  const files = { [join(work, "home/.copilot/config.json")]: JSON.stringify({ trustedFolders: [root] }) };
  const runs = prompts.map((prompt, i) => ({ args: [...(i === 0 ? [] : ["--continue"]), "-p", prompt, "--allow-all-tools"] }));
  return runScenario(work, { command: (found as { path: string }).path, cwd: root, env, files, script, runs }, "copilot");
}

/** A copy of the fixture with ctxinject installed in it and its hooks written by init, as the host page says. */
function project(...inits: string[]): string {
  const root = materialize("claude-host");
  installInProject(root);
  for (const flag of inits.length > 0 ? inits : ["--copilot"]) {
    const init = runCli(["init", flag], { cwd: root });
    assert.is(init.status, 0, init.stderr);
  }
  return root;
}

const suite = hostSuite(found);

suite("installed by init --copilot, a prompt naming a file brings that file's rules once, and the root AGENTS.md Copilot CLI loads itself once", () => {
  const out = copilot(project(), [{ text: "ok" }], ["fix the retry in src/net/client.ts"]);
  const body = lastAgentTurn(out);
  assert.is(count(body, "MARK-NET-RULE"), 1);
  assert.is(count(body, "MARK-ROOT-CURSORRULES"), 1, "the always-on rule of another agent");
  assert.is(count(body, "MARK-AGENTS-ROOT"), 1, "Copilot CLI's own, not sent again");
});

suite("a read of a nested file: its rules arrive once, and the AGENTS.md Copilot CLI adds itself after the read once", () => {
  const root = project();
  const out = copilot(
    root,
    [{ tool: { name: "view", input: { path: join(root, "packages/api/src/handler.ts") } } }, { text: "ok" }],
    ["what does the handler do?"],
  );
  const body = lastAgentTurn(out);
  assert.is(count(body, "MARK-API-RULE"), 1);
  assert.is(count(body, "MARK-API-AGENTS"), 1);
  assert.is(count(body, "MARK-AGENTS-ROOT"), 1);
});

suite("a prompt naming a nested file, then a read of it: the AGENTS.md Copilot CLI adds to the read's result arrives once (not also at prompt time)", () => {
  const root = project();
  const out = copilot(
    root,
    [{ tool: { name: "view", input: { path: join(root, "packages/api/src/handler.ts") } } }, { text: "ok" }],
    ["fix the bug in packages/api/src/handler.ts"],
  );
  const body = lastAgentTurn(out);
  assert.match(body, "export function handle", "Copilot CLI ran the read");
  assert.is(count(body, "MARK-API-AGENTS"), 1);
  assert.is(count(body, "MARK-API-RULE"), 1, "the file's rule, at prompt time");
});

suite("a prompt naming a nested file, then an edit without a read: its AGENTS.md still arrives once (ctxinject's, at the edit)", () => {
  const out = copilot(
    project(),
    [{ tool: { name: "apply_patch", input: NESTED_PATCH } }, { text: "ok" }],
    ["make handle in packages/api/src/handler.ts return a number"],
  );
  const body = lastAgentTurn(out);
  assert.match(body, "Modified 1 file", "Copilot CLI ran the patch");
  assert.is(count(body, "MARK-API-AGENTS"), 1);
  assert.is(count(body, "MARK-API-RULE"), 1);
});

suite("a second prompt in the same session (--continue) repeats nothing", () => {
  const out = copilot(project(), [{ text: "one" }, { text: "two" }], ["fix the retry in src/net/client.ts", "and src/net/client.ts again"]);
  const body = lastAgentTurn(out);
  assert.match(body, "and src/net/client.ts again");
  assert.match(body, "fix the retry in src/net/client.ts", "the second run continued the first session");
  assert.is(count(body, "MARK-NET-RULE"), 1);
  assert.is(count(body, "MARK-ROOT-CURSORRULES"), 1);
});

suite("apply_patch on a nested file: its rules and the AGENTS.md Copilot CLI does not add after an edit arrive once", () => {
  const out = copilot(project(), [{ tool: { name: "apply_patch", input: NESTED_PATCH } }, { text: "ok" }], ["make handle return a number"]);
  const body = lastAgentTurn(out);
  assert.match(body, "Modified 1 file", "Copilot CLI ran the patch");
  assert.is(count(body, "MARK-API-RULE"), 1);
  assert.is(count(body, "MARK-API-AGENTS"), 1);
});

suite("with Claude Code's hooks installed too (Copilot CLI runs them as well), an edit brings each text once", () => {
  const root = project("--claude", "--copilot");
  mkdirSync(join(root, ".github"), { recursive: true });
  writeFileSync(join(root, ".github/copilot-instructions.md"), "Prefer small pull requests. (MARK-COPILOT-INSTRUCTIONS)\n");
  const edit = { path: join(root, "packages/api/src/handler.ts"), old_str: "void {}", new_str: "number { return 0; }" };
  const out = copilot(root, [{ tool: { name: "edit", input: edit } }, { text: "ok" }], ["make handle return a number"], "anthropic");
  const body = lastAgentTurn(out);
  assert.match(readFileSync(edit.path, "utf8"), "number { return 0; }", "Copilot CLI ran the edit");
  assert.is(count(body, "MARK-API-RULE"), 1);
  // Claude Code's hook would add copilot-instructions.md (Claude Code does not read it) before the edit, in
  // Claude's answer shape, which Copilot CLI reads on preToolUse.
  assert.is(count(body, "MARK-COPILOT-INSTRUCTIONS"), 1, "Copilot CLI's own, once");
  assert.is(count(body, "MARK-AGENTS-ROOT"), 1);
});

suite("a subagent (task tool) gets its own rules once, from its own prompt", () => {
  const task = { description: "look at handler", prompt: "Summarise packages/api/src/handler.ts", agent_type: "explore", name: "looker" };
  const out = copilot(
    project(),
    [{ tool: { name: "task", input: task }, when: "what does the handler" }, { text: "summary", when: "Summarise packages" }, { text: "ok" }],
    ["what does the handler do?"],
  );
  const sub = agentTurns(out, (r) => JSON.stringify(r.body).includes("Summarise packages")).map((r) => JSON.stringify(r.body));
  assert.ok(sub.length > 0, "the subagent asked the model");
  assert.is(count(sub[0]!, "MARK-API-RULE"), 1);
  assert.is(count(JSON.stringify(agentTurns(out)[0]?.body), "MARK-API-RULE"), 0, "the main agent's prompt names no file");
});

test.run();
