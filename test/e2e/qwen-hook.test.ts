/** `ctxinject hook qwen` with the events Qwen Code 0.24.4 sends (recorded by test/hosts/qwen.test.ts), and `init --qwen`. */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, fakeLocalInstall, materialize, runCli } from "../helpers/cli.js";
import { cleanupHookCases, hookCase } from "../helpers/hook-case.js";

test.after(cleanupHookCases);

/** A copy of fixtures/claude-host and a hook that sends one Qwen Code event of session s-1 (its fields as recorded). */
function setup() {
  const { root, hook } = hookCase("qwen", "claude-host", (root, state) => ({ session_id: "0d6f1c2e-qwen", transcript_path: join(state, "t.jsonl"), cwd: root, permission_mode: "yolo", timestamp: "2026-11-24T21:00:00.000Z" }));
  return { root, hook };
}

const contextOf = (stdout: string): string => JSON.parse(stdout).hookSpecificOutput.additionalContext as string;

test("qwen: SessionStart answers nothing (its text is not kept for a resumed session); the first prompt brings the root rules, not the AGENTS.md Qwen Code loads itself", () => {
  const { hook } = setup();
  const start = hook({ hook_event_name: "SessionStart", source: "startup", model: "gpt-fake" });
  assert.is(start.status, 0, start.stderr);
  assert.is(start.stdout, "");
  const out = hook({ hook_event_name: "UserPromptSubmit", prompt: "hello" });
  assert.is(JSON.parse(out.stdout).hookSpecificOutput.hookEventName, "UserPromptSubmit");
  const context = contextOf(out.stdout);
  assert.match(context, "MARK-ROOT-CURSORRULES");
  assert.not.match(context, "MARK-AGENTS-ROOT");
});

test("qwen: a prompt naming a file brings its rules once; the empty prompt Qwen Code sends after a tool result answers nothing", () => {
  const { hook } = setup();
  assert.is(hook({ hook_event_name: "UserPromptSubmit", prompt: "" }).stdout, "", "an empty prompt asks for nothing, even in a session that has had nothing yet");
  const prompt = hook({ hook_event_name: "UserPromptSubmit", prompt: "fix the retry in src/net/client.ts" });
  assert.is(prompt.status, 0, prompt.stderr);
  assert.match(contextOf(prompt.stdout), "MARK-NET-RULE");
  assert.is(hook({ hook_event_name: "UserPromptSubmit", prompt: "" }).stdout, "");
  assert.is(hook({ hook_event_name: "UserPromptSubmit", prompt: "and src/net/client.ts again" }).stdout, "", "a second prompt repeats nothing");
});

test("qwen: read_file of a nested file brings its rules and nested AGENTS.md once; PreToolUse answers nothing", () => {
  const { root, hook } = setup();
  const read = { hook_event_name: "PostToolUse", tool_name: "read_file", tool_input: { file_path: join(root, "packages/api/src/handler.ts") }, tool_response: "export {}", tool_use_id: "call_1" };
  assert.is(hook({ ...read, hook_event_name: "PreToolUse" }).stdout, "");
  const out = hook(read);
  assert.is(out.status, 0, out.stderr);
  const context = contextOf(out.stdout);
  assert.match(context, "MARK-API-RULE");
  assert.match(context, "MARK-API-AGENTS", "Qwen Code has no nested discovery");
  assert.is(hook(read).stdout, "");
});

test("init --qwen merges SessionStart, UserPromptSubmit and PostToolUse hooks into .qwen/settings.json (other settings stay); again changes nothing; --user writes ~/.qwen/settings.json", () => {
  const root = materialize("claude-host");
  mkdirSync(join(root, ".qwen"));
  writeFileSync(join(root, ".qwen/settings.json"), JSON.stringify({ model: { name: "qwen3" }, hooks: { PostToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "echo mine" }] }] } }));
  fakeLocalInstall(root);
  const init = runCli(["init", "--qwen"], { cwd: root });
  assert.is(init.status, 0, init.stderr);
  const text = readFileSync(join(root, ".qwen/settings.json"), "utf8");
  const settings = JSON.parse(text);
  assert.equal(settings.model, { name: "qwen3" });
  assert.equal(Object.keys(settings.hooks), ["PostToolUse", "SessionStart", "UserPromptSubmit"], "not PreToolUse: Qwen Code drops its text");
  assert.is(settings.hooks.PostToolUse.length, 2, "the user's own hook stays");
  assert.equal(settings.hooks.PostToolUse[1], { matcher: "read_file|edit|write_file", hooks: [{ type: "command", command: "node_modules/.bin/ctxinject hook qwen", timeout: 10 }] });
  assert.equal(settings.hooks.UserPromptSubmit, [{ hooks: [{ type: "command", command: "node_modules/.bin/ctxinject hook qwen", timeout: 10 }] }]);
  const again = runCli(["init", "--qwen"], { cwd: root });
  assert.match(again.stderr, "unchanged");
  assert.is(readFileSync(join(root, ".qwen/settings.json"), "utf8"), text);
  assert.match(runCli(["init"], { cwd: root }).stderr, "Qwen Code (.qwen/): installed (.qwen/settings.json)");
  const home = join(root, "home");
  mkdirSync(home);
  assert.is(runCli(["init", "--qwen", "--user"], { cwd: root, env: { HOME: home } }).status, 0);
  assert.is(JSON.parse(readFileSync(join(home, ".qwen/settings.json"), "utf8")).hooks.SessionStart[0].hooks[0].command, `node ${BIN} hook qwen`);
});

test.run();
