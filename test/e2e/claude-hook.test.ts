import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { BIN, cleanup, HOOK_SERVER_OFF, materialize, runCli } from "../helpers/cli.js";

// Every hook here answers in its own process (HOOK_SERVER_OFF): what a hook answers, not how it travels; the server
// path is hook-server.test.ts's, each test with a server of its own.

const states: string[] = [];
test.after(() => {
  cleanup();
  for (const dir of states.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const root = materialize("monorepo");
  const state = mkdtempSync(join(tmpdir(), "ctxinject-hook-"));
  states.push(state);
  const hook = (event: Record<string, unknown>) => runCli(["hook", "claude"], { cwd: "/", env: { ...HOOK_SERVER_OFF, CTXINJECT_STATE_DIR: state }, input: JSON.stringify({ session_id: "s-1", cwd: root, ...event }) });
  return { root, state, hook };
}

const contextOf = (stdout: string, event: string): string => {
  const value = JSON.parse(stdout);
  assert.is(value.hookSpecificOutput.hookEventName, event);
  return value.hookSpecificOutput.additionalContext as string;
};

const read = (root: string, file: string) => ({ hook_event_name: "PostToolUse", tool_name: "Read", tool_input: { file_path: join(root, file) } });

test("the test helpers refuse a hook run that does not say which path answers it", () => {
  const input = JSON.stringify({ session_id: "s-0", cwd: "/", hook_event_name: "UserPromptSubmit", prompt: "hello" });
  // The inherited environment never says it: a server already running on the machine could answer.
  assert.throws(() => runCli(["hook", "claude"], { cwd: "/", input }), /which path answers a hook/);
  assert.throws(() => runCli(["hook", "claude"], { cwd: "/", input, env: { XDG_RUNTIME_DIR: "/tmp" } }), /which path answers a hook/, "a spool of its own needs a state folder of its own too");
  assert.is(runCli(["hook", "claude"], { cwd: "/", input, env: HOOK_SERVER_OFF }).status, 0);
});

test("32 hooks at once on one session (parallel subagents' reads) give each registered entry to exactly one of them", async () => {
  const { root, state } = setup();
  const entries = 40;
  for (let i = 0; i < entries; i++) {
    const r = runCli(["register", "--session", "busy", "--source", "git-hook", "--id", `note-${i}`, "--content", `Registered note MARK-${i}-END.`], { env: { CTXINJECT_STATE_DIR: state } });
    assert.is(r.status, 0, r.stderr);
  }
  const files = ["packages/api/src/handlers/user.ts", "packages/web/src/components/Button.tsx", "README.md", "package.json"];
  const runs = await Promise.all(
    Array.from({ length: 32 }, (_, i) => {
      const event = JSON.stringify({ session_id: "busy", cwd: root, ...read(root, files[i % files.length]!) });
      return new Promise<{ status: number | null; stdout: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, "hook", "claude"], { env: { ...process.env, NO_COLOR: "1", ...HOOK_SERVER_OFF, CTXINJECT_STATE_DIR: state }, stdio: ["pipe", "pipe", "ignore"] });
        let stdout = "";
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
        child.on("close", (status) => resolve({ status, stdout }));
        child.stdin.end(event);
      });
    }),
  );
  assert.ok(runs.every((r) => r.status === 0));
  const all = runs.map((r) => (r.stdout.trim() === "" ? "" : contextOf(r.stdout, "PostToolUse"))).join("\n");
  for (let i = 0; i < entries; i++) assert.is(all.split(`MARK-${i}-END`).length - 1, 1, `entry ${i} delivered once`);
  assert.equal(JSON.parse(runCli(["pending", "--session", "busy", "--format", "json"], { env: { CTXINJECT_STATE_DIR: state } }).stdout).entries, [], "nothing left pending");
});

test("past its deadline (config hookDeadlineMs) a hook answers with what it read by then, exits 0, and loses nothing", () => {
  const { root, state, hook } = setup();
  writeFileSync(join(root, ".ctxinjectrc.json"), JSON.stringify({ hookDeadlineMs: 1 }));
  const registered = runCli(["register", "--session", "s-1", "--source", "git-hook", "--id", "late", "--content", "Late note MARK-LATE."], { env: { CTXINJECT_STATE_DIR: state } });
  assert.is(registered.status, 0, registered.stderr);
  const { status, stdout, stderr } = hook({ hook_event_name: "UserPromptSubmit", prompt: "tidy packages/web/src/components/Button.tsx" });
  assert.is(status, 0, stderr);
  // A small tree is read and redacted whole whatever the clock says (the least any answer holds): nothing is lost.
  const context = contextOf(stdout, "UserPromptSubmit");
  assert.match(context, "MARK-LATE");
  assert.match(context, "Keep functions short");
  const pending = JSON.parse(runCli(["pending", "--session", "s-1", "--format", "json"], { env: { CTXINJECT_STATE_DIR: state } }).stdout) as { entries: Array<{ content: string }> };
  assert.equal(pending.entries, [], "the session's entry was given");
});

test("a tree made slow on purpose (8,000 rules on the target's path) stops reading at the deadline and answers with the rules nearer the root", () => {
  const { root, hook } = setup();
  const rules = join(root, "packages/web/.cursor/rules/bulk");
  mkdirSync(rules, { recursive: true });
  for (let i = 0; i < 8000; i++) writeFileSync(join(rules, `rule-${i}.mdc`), `---\nglobs: "src/**/*.tsx"\n---\nGenerated rule ${i}: keep component ${i} pure.\n`);
  writeFileSync(join(root, ".ctxinjectrc.json"), JSON.stringify({ hookDeadlineMs: 150 }));
  const started = Date.now();
  const { status, stdout, stderr } = hook({ hook_event_name: "UserPromptSubmit", prompt: "tidy packages/web/src/components/Button.tsx" });
  const took = Date.now() - started;
  assert.is(status, 0);
  assert.match(stderr, /stopped at the 150 ms deadline \(config hookDeadlineMs\): \d+ of 80\d\d files not read/);
  assert.match(contextOf(stdout, "UserPromptSubmit"), "Keep functions short", "the root's rules are read first");
  assert.ok(took < 5000, `answered in ${took} ms`);
});

test("after a compaction the agent gets a digest of what was in force, critical rules in full, and the rules come back on use", () => {
  const { root, hook } = setup();
  const first = hook(read(root, "packages/api/src/handlers/user.ts"));
  assert.match(contextOf(first.stdout, "PostToolUse"), "packages/api/.cursor/rules/handlers.mdc");
  const compacted = hook({ hook_event_name: "SessionStart", source: "compact" });
  assert.is(compacted.status, 0, compacted.stderr);
  const digest = contextOf(compacted.stdout, "SessionStart");
  assert.match(digest, "## Instructions in force before this conversation was compacted");
  assert.match(digest, "### packages/api/.cursor/rules/handlers.mdc (critical)", "a critical rule in full");
  assert.match(digest, "- .cursor/rules/general.mdc", "the others by path");
  assert.ok(digest.length <= 9500 * 0.25, `within a quarter of the cap (${digest.length})`);
  const again = hook(read(root, "packages/api/src/handlers/user.ts"));
  assert.match(contextOf(again.stdout, "PostToolUse"), "<!-- rules-injector: packages/api/.cursor/rules/handlers.mdc", "full texts come back when the file is touched again");
  const clear = hook({ hook_event_name: "SessionStart", source: "clear" });
  assert.is(clear.stdout, "", "/clear forgets without a digest");
});

test("UserPromptSubmit answers with the context for the prompt", () => {
  const { hook } = setup();
  const { status, stdout, stderr } = hook({ hook_event_name: "UserPromptSubmit", prompt: "ulw tidy packages/web/src/components/Button.tsx" });
  assert.is(status, 0, stderr);
  const context = contextOf(stdout, "UserPromptSubmit");
  assert.match(context, "ULTRAWORK MODE");
  assert.match(context, "packages/web/.cursor/rules/components.mdc");
});

test("what Claude Code loads itself is skipped: CLAUDE.md, its copies, and .claude/rules without paths", () => {
  const { hook } = setup();
  const context = contextOf(hook({ hook_event_name: "UserPromptSubmit", prompt: "hello" }).stdout, "UserPromptSubmit");
  assert.not.match(context, "Use pnpm; never commit", "AGENTS.md has CLAUDE.md's content, which Claude already has");
  assert.not.match(context, "Errors carry the file and line", ".claude/rules/conventions.md has no paths");
  assert.match(context, "Keep functions short");
});

test("includeNative in the config brings them back", () => {
  const { root, hook } = setup();
  writeFileSync(join(root, ".ctxinjectrc.json"), JSON.stringify({ agents: { files: ["AGENTS.md", "CLAUDE.md"] }, claude: { includeNative: true } }));
  const context = contextOf(hook({ hook_event_name: "UserPromptSubmit", prompt: "hello" }).stdout, "UserPromptSubmit");
  assert.match(context, "Use pnpm; never commit");
});

test("PostToolUse on Read answers with that file's rules once, then nothing until it changes", () => {
  const { root, hook } = setup();
  const one = hook(read(root, "packages/api/src/handlers/user.ts"));
  assert.is(one.status, 0, one.stderr);
  assert.match(contextOf(one.stdout, "PostToolUse"), "Every handler checks the caller's permissions first.");
  const two = hook(read(root, "packages/api/src/handlers/user.ts"));
  assert.is(two.status, 0);
  assert.is(two.stdout, "", "nothing new: no output at all");
});

test("SessionStart after compact forgets what the session has seen (and answers with the digest)", () => {
  const { root, hook } = setup();
  hook(read(root, "packages/api/src/handlers/user.ts"));
  assert.is(hook(read(root, "packages/api/src/handlers/user.ts")).stdout, "");
  assert.match(contextOf(hook({ hook_event_name: "SessionStart", source: "compact" }).stdout, "SessionStart"), "Instructions in force");
  assert.match(contextOf(hook(read(root, "packages/api/src/handlers/user.ts")).stdout, "PostToolUse"), "Every handler checks");
});

test("SessionEnd clears the session only for /clear: a run that ends may be resumed", () => {
  const { root, state, hook } = setup();
  hook(read(root, "packages/api/src/handlers/user.ts"));
  const env = { CTXINJECT_STATE_DIR: state };
  assert.is(JSON.parse(runCli(["sessions", "--json"], { env }).stdout).sessions.length, 1);
  for (const reason of ["other", "prompt_input_exit", "logout"]) assert.is(hook({ hook_event_name: "SessionEnd", reason }).status, 0);
  assert.is(JSON.parse(runCli(["sessions", "--json"], { env }).stdout).sessions.length, 1);
  assert.is(hook(read(root, "packages/api/src/handlers/user.ts")).stdout, "", "nothing again after a resume");
  assert.is(hook({ hook_event_name: "SessionEnd", reason: "clear" }).status, 0);
  assert.equal(JSON.parse(runCli(["sessions", "--json"], { env }).stdout).sessions, []);
});

test("other tools and events answer nothing", () => {
  const { hook } = setup();
  for (const event of [{ hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" } }, { hook_event_name: "Stop" }]) {
    const result = hook(event);
    assert.is(result.status, 0);
    assert.is(result.stdout, "");
  }
});

test("additionalContext stays under Claude Code's 10,000-character cap", () => {
  const { root, hook } = setup();
  writeFileSync(join(root, "README.md"), "# Big\n\n" + "A sentence that says a little. ".repeat(3000));
  const context = contextOf(hook({ hook_event_name: "UserPromptSubmit", prompt: "hello" }).stdout, "UserPromptSubmit");
  assert.ok(context.length <= 10_000, `${context.length} characters`);
  assert.match(context, "read README.md for the rest");
});

test("a config error reaches the user as a systemMessage, and the prompt goes through (exit 0)", () => {
  const { root, state } = setup();
  writeFileSync(join(root, ".ctxinjectrc.json"), '{ "claude": { "maxChars": 30000 } }');
  const input = JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: "s", cwd: root, prompt: "x" });
  const result = runCli(["hook", "claude"], { cwd: "/", env: { ...HOOK_SERVER_OFF, CTXINJECT_STATE_DIR: state }, input });
  assert.is(result.status, 0);
  const answer = JSON.parse(result.stdout) as { systemMessage: string };
  assert.match(answer.systemMessage, /^ctxinject: .*\.ctxinjectrc\.json: "claude\.maxChars" must be a whole number from 100 to 10000, got number 30000/);
});

test("bad input or a failure of its own: nothing on stdout, one line on stderr, never exit 2", () => {
  const { state } = setup();
  const cases = ["not json", "[]", JSON.stringify({ hook_event_name: "UserPromptSubmit", prompt: "x" }), ""];
  for (const input of cases) {
    const result = runCli(["hook", "claude"], { cwd: "/", env: { ...HOOK_SERVER_OFF, CTXINJECT_STATE_DIR: state }, input });
    assert.is(result.stdout, "", input);
    assert.is(result.status, 1, input);
    assert.match(result.stderr, /^ctxinject hook claude: .+\n$/, input);
  }
});

test("a warning (the Cursor unquoted glob) is printed once per session, and again in a new session", () => {
  const { root, hook } = setup();
  const first = hook({ hook_event_name: "UserPromptSubmit", prompt: "tidy packages/web/src/components/Button.tsx" });
  assert.match(first.stderr, "typescript.mdc:3: frontmatter is not strict YAML");
  const second = hook(read(root, "packages/api/src/handlers/user.ts"));
  assert.not.match(second.stderr, "typescript.mdc");
  const fresh = mkdtempSync(join(tmpdir(), "ctxinject-hook-"));
  states.push(fresh);
  const other = runCli(["hook", "claude"], { cwd: "/", env: { ...HOOK_SERVER_OFF, CTXINJECT_STATE_DIR: fresh }, input: JSON.stringify({ session_id: "s-2", cwd: root, hook_event_name: "UserPromptSubmit", prompt: "hello" }) });
  assert.match(other.stderr, "typescript.mdc:3");
});

test.run();
