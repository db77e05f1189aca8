/**
 * `ctxinject hook cursor` with events shaped as Cursor's hooks documentation gives them (hooks.json v1: snake_case,
 * `conversation_id`, `workspace_roots`); not recorded from the real CLI, which cannot run here.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { materialize, runCli } from "../helpers/cli.js";
import { cleanupHookCases, hookCase } from "../helpers/hook-case.js";

test.after(cleanupHookCases);

function setup() {
  // What every Cursor event carries; no cwd and no session_id (sessionStart adds session_id).
  const { root, hook } = hookCase("cursor", "claude-host", (root) => ({ conversation_id: "conv-1", generation_id: "gen-1", model: "auto", cursor_version: "2.4.0", workspace_roots: [root], user_email: null, transcript_path: null }));
  // An always-on file Cursor does not read itself.
  mkdirSync(join(root, ".github"), { recursive: true });
  writeFileSync(join(root, ".github/copilot-instructions.md"), "Answer in British English. (MARK-COPILOT-ALWAYS)\n");
  return { root, hook };
}

test("cursor: sessionStart answers additional_context with the always-on rules, leaving out what Cursor loads itself", () => {
  const { hook } = setup();
  const out = hook({ hook_event_name: "sessionStart", session_id: "conv-1", is_background_agent: false, composer_mode: "agent" });
  assert.is(out.status, 0, out.stderr);
  const answer = JSON.parse(out.stdout);
  assert.equal(Object.keys(answer), ["additional_context"]);
  assert.match(answer.additional_context, "MARK-COPILOT-ALWAYS");
  assert.not.match(answer.additional_context, "MARK-ROOT-CURSORRULES", "Cursor reads .cursorrules itself");
  assert.not.match(answer.additional_context, "MARK-AGENTS-ROOT", "and the root AGENTS.md");
});

test("cursor: beforeSubmitPrompt brings a named file's rules (continue: true), once per conversation; Cursor's own rules are left out", () => {
  const { hook } = setup();
  const first = hook({ hook_event_name: "beforeSubmitPrompt", prompt: "tidy web/page.tsx and src/net/client.ts", attachments: [] });
  assert.is(first.status, 0, first.stderr);
  const answer = JSON.parse(first.stdout);
  assert.is(answer.continue, true);
  assert.match(answer.additional_context, "MARK-CLAUDE-PATHS");
  assert.not.match(answer.additional_context, "MARK-NET-RULE", ".cursor/rules are Cursor's own");
  assert.is(hook({ hook_event_name: "beforeSubmitPrompt", prompt: "and web/page.tsx again", attachments: [] }).stdout, "", "the same conversation: nothing again");
});

test("cursor: a file attached to the prompt brings its rules", () => {
  const { root, hook } = setup();
  const out = hook({ hook_event_name: "beforeSubmitPrompt", prompt: "what is this?", attachments: [{ type: "file", file_path: join(root, "web/page.tsx") }] });
  assert.match(JSON.parse(out.stdout).additional_context, "MARK-CLAUDE-PATHS");
});

test("cursor: tool and stop events answer nothing", () => {
  const { root, hook } = setup();
  for (const event of [{ hook_event_name: "postToolUse", tool_name: "Read", tool_input: { file_path: join(root, "web/page.tsx") }, tool_output: "{}" }, { hook_event_name: "stop", status: "completed" }]) {
    const out = hook(event);
    assert.is(out.status, 0, out.stderr);
    assert.is(out.stdout, "");
  }
});

test("init --cursor writes .cursor/hooks.json v1 with flat entries (the user's hooks stay); again changes nothing", () => {
  const root = materialize("claude-host");
  const file = join(root, ".cursor/hooks.json");
  mkdirSync(join(root, ".cursor"), { recursive: true });
  writeFileSync(file, JSON.stringify({ version: 1, hooks: { afterFileEdit: [{ command: "./format.sh" }], beforeSubmitPrompt: [{ command: "./audit.sh" }] } }));
  const init = runCli(["init", "--cursor"], { cwd: root });
  assert.is(init.status, 0, init.stderr);
  const written = JSON.parse(readFileSync(file, "utf8"));
  assert.is(written.version, 1);
  assert.equal(written.hooks.afterFileEdit, [{ command: "./format.sh" }]);
  assert.is(written.hooks.beforeSubmitPrompt.length, 2, "the user's own hook stays");
  assert.match(written.hooks.sessionStart[0].command, /ctxinject.* hook cursor$/);
  assert.is(written.hooks.sessionStart[0].timeout, 10);
  assert.is(written.hooks.sessionStart[0].hooks, undefined, "no Claude-style matcher groups");
  assert.match(runCli(["init", "--cursor"], { cwd: root }).stderr, "unchanged");
});

test.run();
