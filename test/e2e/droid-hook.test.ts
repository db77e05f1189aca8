/** `ctxinject hook droid` with the events Factory Droid 0.215.0 sends (recorded by test/hosts/droid.test.ts), and `init --droid`. */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, fakeLocalInstall, materialize, runCli } from "../helpers/cli.js";
import { cleanupHookCases, hookCase } from "../helpers/hook-case.js";

test.after(cleanupHookCases);

/** A copy of fixtures/claude-host and a hook that sends one Droid event of session s-1 (its fields as recorded). */
function setup() {
  const { root, hook } = hookCase("droid", "claude-host", (root, state) => ({ session_id: "7c0e-droid", transcript_path: join(state, "t.jsonl"), cwd: root, permission_mode: "auto-high" }));
  return { root, hook };
}

const contextOf = (stdout: string): string => JSON.parse(stdout).hookSpecificOutput.additionalContext as string;

test("droid: SessionStart brings the root rules once, not the AGENTS.md Droid loads itself", () => {
  const { hook } = setup();
  const out = hook({ hook_event_name: "SessionStart", source: "startup" });
  assert.is(out.status, 0, out.stderr);
  assert.is(JSON.parse(out.stdout).hookSpecificOutput.hookEventName, "SessionStart");
  const context = contextOf(out.stdout);
  assert.match(context, "MARK-ROOT-CURSORRULES");
  assert.not.match(context, "MARK-AGENTS-ROOT");
  assert.is(hook({ hook_event_name: "SessionStart", source: "resume" }).stdout, "", "a resumed session repeats nothing");
});

test("droid: a Read of a nested file brings its rules once, not the nested AGENTS.md Droid adds itself; PreToolUse answers nothing", () => {
  const { root, hook } = setup();
  const read = { hook_event_name: "PostToolUse", tool_name: "Read", tool_input: { file_path: join(root, "packages/api/src/handler.ts") }, tool_response: "export {}" };
  assert.is(hook({ ...read, hook_event_name: "PreToolUse" }).stdout, "");
  const out = hook(read);
  assert.is(out.status, 0, out.stderr);
  const context = contextOf(out.stdout);
  assert.match(context, "MARK-API-RULE");
  assert.not.match(context, "MARK-API-AGENTS");
  assert.is(hook(read).stdout, "");
});

test("droid: an ApplyPatch brings the patched file's rules", () => {
  const { hook } = setup();
  const patch = { hook_event_name: "PostToolUse", tool_name: "ApplyPatch", tool_input: { input: "*** Begin Patch\n*** Update File: src/net/client.ts\n@@\n-a\n+b\n*** End Patch\n" } };
  assert.match(contextOf(hook(patch).stdout), "MARK-NET-RULE");
});

test("init --droid merges SessionStart and PostToolUse hooks into .factory/settings.json through $FACTORY_PROJECT_DIR (other settings stay); again changes nothing; --user writes ~/.factory/settings.json", () => {
  const root = materialize("claude-host");
  mkdirSync(join(root, ".factory"));
  writeFileSync(join(root, ".factory/settings.json"), JSON.stringify({ model: "custom:x", hooks: { SessionStart: [{ hooks: [{ type: "command", command: "echo mine" }] }] } }));
  fakeLocalInstall(root);
  const init = runCli(["init", "--droid"], { cwd: root });
  assert.is(init.status, 0, init.stderr);
  const text = readFileSync(join(root, ".factory/settings.json"), "utf8");
  const settings = JSON.parse(text);
  assert.is(settings.model, "custom:x");
  assert.equal(Object.keys(settings.hooks), ["SessionStart", "PostToolUse"], "not PreToolUse or UserPromptSubmit: their text does not reach the model in droid exec");
  assert.is(settings.hooks.SessionStart.length, 2, "the user's own hook stays");
  const command = '"$FACTORY_PROJECT_DIR"/node_modules/.bin/ctxinject hook droid';
  assert.equal(settings.hooks.PostToolUse, [{ matcher: "Read|Edit|MultiEdit|Create|ApplyPatch", hooks: [{ type: "command", command, timeout: 10 }] }]);
  assert.match(runCli(["init", "--droid"], { cwd: root }).stderr, "unchanged");
  assert.is(readFileSync(join(root, ".factory/settings.json"), "utf8"), text);
  const home = join(root, "home");
  mkdirSync(home);
  assert.is(runCli(["init", "--droid", "--user"], { cwd: root, env: { HOME: home } }).status, 0);
  assert.is(JSON.parse(readFileSync(join(home, ".factory/settings.json"), "utf8")).hooks.SessionStart[0].hooks[0].command, `node ${BIN} hook droid`);
});

test.run();
