import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { BIN, cleanup, fakeLocalInstall, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

test.after(cleanup);

type Settings = { hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ command: string }> }>>; [key: string]: unknown };
const settingsOf = (root: string) => JSON.parse(readFileSync(join(root, ".claude/settings.json"), "utf8")) as Settings;

test("init --claude merges the hooks into .claude/settings.json, keeps what is there, and is idempotent", async () => {
  const root = materialize("imports");
  mkdirSync(join(root, ".claude"));
  const mine = { matcher: "Bash", hooks: [{ type: "command", command: "echo mine" }] };
  writeFileSync(join(root, ".claude/settings.json"), JSON.stringify({ model: "sonnet", hooks: { PreToolUse: [mine] } }));
  // A PATH with no ctxinject on it, so the command is the same on every machine.
  const env = {
    PATH: (process.env.PATH ?? "")
      .split(delimiter)
      .filter((dir) => dir !== "" && !existsSync(join(dir, "ctxinject")))
      .join(delimiter),
  };
  const first = await runMain(["init", "--claude"], { cwd: root, env });
  assert.is(first.status, 0, first.stderr);
  const settings = settingsOf(root);
  assert.is(settings.model, "sonnet");
  assert.equal(settings.hooks.PreToolUse![0], mine);
  for (const event of ["UserPromptSubmit", "PreToolUse", "PostToolUse", "SubagentStart", "SessionStart", "SessionEnd"]) {
    const ours = settings.hooks[event]!.flatMap((g) => g.hooks).filter((h) => h.command.endsWith("hook claude"));
    assert.equal(
      ours.map((h) => h.command),
      [`node ${BIN} hook claude`],
      event,
    );
  }
  assert.is(settings.hooks.PostToolUse!.at(-1)!.matcher, "Read|Write|Edit|MultiEdit|NotebookEdit");
  const again = await runMain(["init", "--claude"], { cwd: root, env });
  assert.match(again.stderr, "unchanged");
  assert.equal(settingsOf(root), settings);
});

test("a project that installs ctxinject gets a command through $CLAUDE_PROJECT_DIR; --user writes ~/.claude/settings.json", async () => {
  const root = materialize("imports");
  fakeLocalInstall(root);
  await runMain(["init", "--claude"], { cwd: root });
  assert.is(settingsOf(root).hooks.UserPromptSubmit![0]!.hooks[0]!.command, '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/ctxinject hook claude');
  const home = join(root, "home");
  mkdirSync(home);
  const user = await runMain(["init", "--claude", "--user"], { cwd: root, env: { HOME: home } });
  assert.is(user.status, 0, user.stderr);
  assert.is(settingsOf(home).hooks.UserPromptSubmit![0]!.hooks[0]!.command, `node ${BIN} hook claude`);
});

test("init --claude writes the command for the platform it is told (the context's), not the one it runs on", async () => {
  const root = materialize("imports");
  fakeLocalInstall(root);
  const result = await runMain(["init", "--claude"], { cwd: root, platform: "win32" });
  assert.is(result.status, 0, result.stderr);
  assert.is(settingsOf(root).hooks.UserPromptSubmit![0]!.hooks[0]!.command, "npx --no-install ctxinject hook claude");
  assert.match(result.stderr, "on Windows npx finds it");
});

test("a settings file that is not JSON is left alone with exit 2", async () => {
  const root = materialize("imports");
  mkdirSync(join(root, ".claude"));
  writeFileSync(join(root, ".claude/settings.json"), "{ nope");
  const result = await runMain(["init", "--claude"], { cwd: root });
  assert.is(result.status, 2);
  assert.match(result.stderr, /settings\.json: not valid JSON/);
  assert.is(readFileSync(join(root, ".claude/settings.json"), "utf8"), "{ nope");
});

test.run();
