/** `ctxinject hook codex` and `hook gemini` with the events those CLIs send (recorded from 0.169.0 and 0.61.0). */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanup, HOOK_SERVER_OFF, materialize, runCli } from "../helpers/cli.js";

const states: string[] = [];
test.after(() => {
  cleanup();
  for (const dir of states.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(agent: "codex" | "gemini") {
  const root = materialize("claude-host");
  writeFileSync(join(root, "packages/api/GEMINI.md"), "Gemini notes for the API. (MARK-GEMINI-API)\n");
  const state = mkdtempSync(join(tmpdir(), "ctxinject-hook-"));
  states.push(state);
  const hook = (event: Record<string, unknown>) => runCli(["hook", agent], { cwd: "/", env: { ...HOOK_SERVER_OFF, CTXINJECT_STATE_DIR: state }, input: JSON.stringify({ session_id: "s-1", cwd: root, ...event }) });
  return { root, hook };
}

const contextOf = (stdout: string): string => JSON.parse(stdout).hookSpecificOutput.additionalContext as string;

test("codex: a Bash command that reads a nested file brings its rules and the AGENTS.md Codex does not read below its folder", () => {
  const { hook } = setup("codex");
  const out = hook({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "sed -n '1,80p' packages/api/src/handler.ts" } });
  assert.is(out.status, 0, out.stderr);
  const context = contextOf(out.stdout);
  assert.match(context, "MARK-API-RULE");
  assert.match(context, "MARK-API-AGENTS");
  assert.not.match(context, "MARK-AGENTS-ROOT", "the root AGENTS.md is Codex's own");
});

test("codex: a command that names no file answers nothing; the same file again answers nothing", () => {
  const { hook } = setup("codex");
  assert.is(hook({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls -la" } }).stdout, "");
  const cat = { hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "cat src/net/client.ts" } };
  assert.match(contextOf(hook(cat).stdout), "MARK-NET-RULE");
  assert.is(hook(cat).stdout, "");
});

test("codex: apply_patch before the patch: the patched file's rules; PostCompact brings them back", () => {
  const { hook } = setup("codex");
  const patch = { hook_event_name: "PreToolUse", tool_name: "apply_patch", tool_input: { command: "*** Begin Patch\n*** Add File: src/net/retry.ts\n+export {};\n*** End Patch\n" } };
  assert.match(contextOf(hook(patch).stdout), "MARK-NET-RULE");
  assert.is(hook(patch).stdout, "");
  hook({ hook_event_name: "PostCompact" });
  assert.match(contextOf(hook(patch).stdout), "MARK-NET-RULE");
});

test("gemini: read_file brings the file's rules and AGENTS.md, not the GEMINI.md Gemini CLI adds itself", () => {
  const { hook } = setup("gemini");
  const out = hook({ hook_event_name: "AfterTool", tool_name: "read_file", tool_input: { file_path: "packages/api/src/handler.ts" } });
  assert.is(out.status, 0, out.stderr);
  const context = contextOf(out.stdout);
  assert.match(context, "MARK-API-RULE");
  assert.match(context, "MARK-API-AGENTS");
  assert.not.match(context, "MARK-GEMINI-API");
  assert.is(JSON.parse(out.stdout).hookSpecificOutput.hookEventName, "AfterTool");
});

test("gemini: BeforeAgent answers for the prompt; other tools and PreCompress answer nothing", () => {
  const { hook } = setup("gemini");
  assert.match(contextOf(hook({ hook_event_name: "BeforeAgent", prompt: "fix the retry in src/net/client.ts" }).stdout), "MARK-NET-RULE");
  assert.is(hook({ hook_event_name: "AfterTool", tool_name: "run_shell_command", tool_input: { command: "cat web/page.tsx" } }).stdout, "");
  assert.is(hook({ hook_event_name: "PreCompress", trigger: "auto" }).stdout, "");
  assert.is(hook({ hook_event_name: "BeforeAgent", prompt: "fix src/net/client.ts" }).stdout, "", "PreCompress did not reset the session");
});

test("init --codex and --gemini merge their hooks (other hooks stay); again changes nothing", () => {
  const root = materialize("claude-host");
  const codex = runCli(["init", "--codex"], { cwd: root });
  assert.is(codex.status, 0, codex.stderr);
  assert.match(codex.stderr, "Hooks need review");
  const hooks = JSON.parse(readFileSync(join(root, ".codex/hooks.json"), "utf8")).hooks;
  assert.equal(Object.keys(hooks), ["UserPromptSubmit", "PreToolUse", "PostToolUse", "SubagentStart", "SessionStart", "PostCompact"]);
  assert.is(hooks.PostToolUse[0].matcher, "Bash|apply_patch|Edit|Write");
  assert.match(runCli(["init", "--codex"], { cwd: root }).stderr, "unchanged");

  const settings = join(root, ".gemini/settings.json");
  mkdirSync(join(root, ".gemini"));
  writeFileSync(settings, JSON.stringify({ hooks: { BeforeAgent: [{ hooks: [{ type: "command", command: "echo {}" }] }] }, ui: { theme: "x" } }));
  assert.is(runCli(["init", "--gemini"], { cwd: root }).status, 0);
  const gemini = JSON.parse(readFileSync(settings, "utf8"));
  assert.is(gemini.ui.theme, "x");
  assert.is(gemini.hooks.BeforeAgent.length, 2, "the user's own hook stays");
  assert.is(gemini.hooks.AfterTool[0].hooks[0].timeout, 10_000, "milliseconds, Gemini CLI's unit");
});

test("hook with an unknown agent names the ones there are", () => {
  const out = runCli(["hook", "windsurf"], { input: "{}", env: HOOK_SERVER_OFF });
  assert.is(out.status, 1);
  assert.match(out.stderr, "expected: claude, codex, gemini, cline, qwen, droid, copilot, cursor");
});

test.run();
