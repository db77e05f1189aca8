/**
 * `ctxinject init --copilot` and `ctxinject hook copilot` with the events GitHub Copilot CLI 1.0.102 sends (recorded
 * from the real CLI: hooks under PascalCase event names get Claude-style snake_case input, the tool named as
 * Claude names it).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { BIN, materialize, runCli } from "../helpers/cli.js";
import { cleanupHookCases, hookCase } from "../helpers/hook-case.js";

test.after(cleanupHookCases);

function setup() {
  const { root, hook } = hookCase("copilot", "claude-host", (root) => ({ session_id: "0d6c1f1e-copilot", timestamp: "2026-11-24T21:29:13.849Z", cwd: root }), { COPILOT_CLI: "1" });
  writeFileSync(join(root, "packages/api/CLAUDE.md"), "Claude notes for the API. (MARK-CLAUDE-API)\n");
  return { root, hook };
}

/** Copilot CLI reads `additionalContext` at the top of the answer (it ignores hookSpecificOutput on these events). */
const contextOf = (stdout: string): string => JSON.parse(stdout).additionalContext as string;

test("copilot: a prompt naming a file brings its rules at the top of the answer, not the AGENTS.md Copilot CLI loads itself", () => {
  const { hook } = setup();
  const out = hook({ hook_event_name: "UserPromptSubmit", prompt: "fix the retry in src/net/client.ts" });
  assert.is(out.status, 0, out.stderr);
  const context = contextOf(out.stdout);
  assert.match(context, "MARK-NET-RULE");
  assert.match(context, "MARK-ROOT-CURSORRULES");
  assert.not.match(context, "MARK-AGENTS-ROOT", "the root AGENTS.md is Copilot CLI's own");
  assert.is(hook({ hook_event_name: "UserPromptSubmit", prompt: "fix the retry in src/net/client.ts" }).stdout, "", "once per session");
});

test("copilot: a Read of a nested file brings its rules, not the AGENTS.md and CLAUDE.md Copilot CLI adds itself after a read", () => {
  const { root, hook } = setup();
  const read = { hook_event_name: "PostToolUse", tool_name: "Read", tool_input: { path: join(root, "packages/api/src/handler.ts") }, tool_result: { result_type: "success", text_result_for_llm: "export function handle(): void {}\n" } };
  const out = hook(read);
  assert.is(out.status, 0, out.stderr);
  const context = contextOf(out.stdout);
  assert.match(context, "MARK-API-RULE");
  assert.not.match(context, "MARK-API-AGENTS");
  assert.not.match(context, "MARK-CLAUDE-API");
  assert.is(hook(read).stdout, "", "the same read again adds nothing");
});

test("copilot: an Edit of a file brings its rules; a tool that names no file answers nothing", () => {
  const { root, hook } = setup();
  assert.is(hook({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" } }).stdout, "");
  const edit = hook({ hook_event_name: "PostToolUse", tool_name: "Edit", tool_input: { path: join(root, "src/net/client.ts"), old_str: "a", new_str: "b" } });
  assert.match(contextOf(edit.stdout), "MARK-NET-RULE");
});

test("copilot: apply_patch (named Edit, its input the patch text) brings the patched file's rules and the nested AGENTS.md Copilot CLI does not add after an edit", () => {
  const { hook } = setup();
  const patch = "*** Begin Patch\n*** Update File: packages/api/src/handler.ts\n@@\n-export function handle(): void {}\n+export function handle(): number {\n+  return 0;\n+}\n*** End Patch\n";
  const out = hook({ hook_event_name: "PostToolUse", tool_name: "Edit", tool_input: patch, tool_result: { result_type: "success", text_result_for_llm: "Modified 1 file(s)" } });
  assert.is(out.status, 0, out.stderr);
  const context = contextOf(out.stdout);
  assert.match(context, "MARK-API-RULE");
  assert.match(context, "MARK-API-AGENTS");
});

test("copilot: a Bash command that reads a nested file brings its rules and nested AGENTS.md (Copilot CLI adds nothing after a shell read)", () => {
  const { hook } = setup();
  const out = hook({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "cat packages/api/src/handler.ts", description: "read", mode: "sync", initial_wait: 10 } });
  assert.is(out.status, 0, out.stderr);
  assert.match(contextOf(out.stdout), "MARK-API-AGENTS");
});

test("copilot: a subagent's prompt (its own session_id, as Copilot CLI sends it) gets the rules the main session already had", () => {
  const { hook } = setup();
  assert.match(contextOf(hook({ hook_event_name: "UserPromptSubmit", prompt: "look at packages/api/src/handler.ts" }).stdout), "MARK-API-RULE");
  const sub = "de36f915-1f68-4431-9df3-c359498c8465";
  const out = hook({ hook_event_name: "UserPromptSubmit", session_id: sub, agent_id: sub, agent_type: "explore", parent_agent_id: "0d6c1f1e-copilot", prompt: "Summarise packages/api/src/handler.ts" });
  assert.match(contextOf(out.stdout), "MARK-API-RULE");
});

test("copilot: `hook copilot-cli` (the profile's name) is the same hook", () => {
  const { hook } = setup();
  assert.match(contextOf(hook({ hook_event_name: "UserPromptSubmit", prompt: "look at src/net/client.ts" }, "copilot-cli").stdout), "MARK-NET-RULE");
});

test("copilot: Copilot CLI also runs Claude Code's hooks; `hook claude` run by it answers nothing, so nothing is claimed twice or lost", () => {
  const { hook } = setup();
  const prompt = { hook_event_name: "UserPromptSubmit", prompt: "fix the retry in src/net/client.ts" };
  const claude = hook(prompt, "claude");
  assert.is(claude.status, 0, claude.stderr);
  assert.is(claude.stdout, "");
  assert.match(contextOf(hook(prompt).stdout), "MARK-NET-RULE", "the copilot hook still has every rule to give");
  const inClaude = hook({ ...prompt, session_id: "claude-own" }, "claude", { COPILOT_CLI: "" });
  assert.match(JSON.parse(inClaude.stdout).hookSpecificOutput.additionalContext, "MARK-NET-RULE", "in Claude Code itself nothing changes");
});

type HookFile = { version: number; hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ type: string; command: string; timeout: number }> }>> };
const hookFileOf = (file: string) => JSON.parse(readFileSync(file, "utf8")) as HookFile;
/** A PATH with no ctxinject on it, so the command is the same on every machine. */
const noCtxinject = () => (process.env.PATH ?? "").split(delimiter).filter((dir) => dir !== "" && !existsSync(join(dir, "ctxinject"))).join(delimiter);

test("init --copilot writes .github/hooks/ctxinject.json with a portable command, says the folder must be trusted, and is idempotent", () => {
  const root = materialize("claude-host");
  const first = runCli(["init", "--copilot"], { cwd: root, env: { PATH: noCtxinject() } });
  assert.is(first.status, 0, first.stderr);
  const file = join(root, ".github/hooks/ctxinject.json");
  const written = hookFileOf(file);
  assert.is(written.version, 1);
  assert.equal(Object.keys(written.hooks), ["UserPromptSubmit", "PostToolUse"]);
  assert.is(written.hooks.PostToolUse![0]!.matcher, "Read|Edit|Write|Bash");
  for (const groups of Object.values(written.hooks)) assert.equal(groups.flatMap((g) => g.hooks.map((h) => h.command)), ["npx --no-install ctxinject hook copilot"]);
  assert.not.match(readFileSync(file, "utf8"), root, "no path of this machine in a committed file");
  assert.match(first.stderr, "trusted");
  const again = runCli(["init", "--copilot"], { cwd: root, env: { PATH: noCtxinject() } });
  assert.match(again.stderr, "unchanged");
});

test("init --copilot --user writes $COPILOT_HOME/hooks/ctxinject.json (default ~/.copilot/hooks) naming this ctxinject", () => {
  const root = materialize("claude-host");
  const home = join(root, "home");
  mkdirSync(home);
  const user = runCli(["init", "--copilot", "--user"], { cwd: root, env: { HOME: home } });
  assert.is(user.status, 0, user.stderr);
  assert.is(hookFileOf(join(home, ".copilot/hooks/ctxinject.json")).hooks.UserPromptSubmit![0]!.hooks[0]!.command, `node ${BIN} hook copilot`);
  const elsewhere = join(root, "copilot-home");
  assert.is(runCli(["init", "--copilot", "--user"], { cwd: root, env: { HOME: home, COPILOT_HOME: elsewhere } }).status, 0);
  assert.ok(existsSync(join(elsewhere, "hooks/ctxinject.json")));
});

test("init without a flag, in a repository with copilot-instructions.md, says what init --copilot would write", () => {
  const root = materialize("claude-host");
  mkdirSync(join(root, ".github"));
  writeFileSync(join(root, ".github/copilot-instructions.md"), "Prefer small pull requests.\n");
  const out = runCli(["init"], { cwd: root, env: { PATH: noCtxinject() } });
  assert.is(out.status, 0, out.stderr);
  assert.match(out.stderr, "Copilot CLI (.github/copilot-instructions.md): `ctxinject init --copilot` would merge hooks running `npx --no-install ctxinject hook copilot` into .github/hooks/ctxinject.json");
  assert.match(out.stderr, "GitHub Copilot in the IDE (.github/copilot-instructions.md): no hook to install");
});

test.run();
