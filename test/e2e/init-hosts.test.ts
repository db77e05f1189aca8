/**
 * `init --<host>` for the command-hook hosts, in this process: the hooks merged into each host's settings file (the
 * user's own stay), a portable command, idempotent; `--user` into the user's folder. (Moved from the per-host hook
 * tests; what the hooks answer is host-hooks.test.ts's.)
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { BIN, cleanup, fakeLocalInstall, materialize, REPO } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

test.after(cleanup);
const init = (root: string, flags: string[], env: Record<string, string> = {}) => runMain(["init", ...flags], { cwd: root, env });

test("init --codex and --gemini merge their hooks (other hooks stay); again changes nothing", async () => {
  const root = materialize("claude-host");
  const codex = await init(root, ["--codex"]);
  assert.is(codex.status, 0, codex.stderr);
  assert.match(codex.stderr, "Hooks need review");
  const hooks = JSON.parse(readFileSync(join(root, ".codex/hooks.json"), "utf8")).hooks;
  assert.equal(Object.keys(hooks), ["UserPromptSubmit", "PreToolUse", "PostToolUse", "SubagentStart", "SessionStart", "PostCompact"]);
  assert.is(hooks.PostToolUse[0].matcher, "Bash|apply_patch|Edit|Write");
  assert.match((await init(root, ["--codex"])).stderr, "unchanged");

  const settings = join(root, ".gemini/settings.json");
  mkdirSync(join(root, ".gemini"));
  writeFileSync(settings, JSON.stringify({ hooks: { BeforeAgent: [{ hooks: [{ type: "command", command: "echo {}" }] }] }, ui: { theme: "x" } }));
  assert.is((await init(root, ["--gemini"])).status, 0);
  const gemini = JSON.parse(readFileSync(settings, "utf8"));
  assert.is(gemini.ui.theme, "x");
  assert.is(gemini.hooks.BeforeAgent.length, 2, "the user's own hook stays");
  assert.is(gemini.hooks.AfterTool[0].hooks[0].timeout, 10_000, "milliseconds, Gemini CLI's unit");
});

test("init --cline writes the plugin into .cline/plugins, naming no path of this machine; again it changes nothing", async () => {
  const root = materialize("claude-host");
  mkdirSync(join(root, ".clinerules"));
  writeFileSync(join(root, ".clinerules/style.md"), "Prefer small functions. (MARK-CLINERULES)\n");
  const home = folder("cline-home");
  const first = await init(root, ["--cline"], { HOME: home });
  assert.is(first.status, 0, first.stderr);
  const plugin = readFileSync(join(root, ".cline/plugins/ctxinject.js"), "utf8");
  assert.match(plugin, '"hook", "cline"');
  for (const machine of [REPO, root, home, tmpdir()]) assert.not.match(plugin, machine);
  assert.match((await init(root, ["--cline"], { HOME: home })).stderr, "unchanged");
  assert.match((await init(root, [], { HOME: home })).stderr, "Cline CLI (.cline/, .clinerules): installed (.cline/plugins/ctxinject.js)");
});

test("init --cline --user writes the plugin into ~/.cline/plugins (or $CLINE_DIR/plugins), not into the project", async () => {
  const root = materialize("claude-host");
  const home = folder("cline-home");
  assert.is((await init(root, ["--cline", "--user"], { HOME: home })).status, 0);
  assert.ok(existsSync(join(home, ".cline/plugins/ctxinject.js")));
  assert.not.ok(existsSync(join(root, ".cline/plugins/ctxinject.js")));
  const dir = folder("cline-dir");
  assert.is((await init(root, ["--cline", "--user"], { HOME: home, CLINE_DIR: dir })).status, 0);
  assert.ok(existsSync(join(dir, "plugins/ctxinject.js")));
});

type HookFile = { version: number; hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ type: string; command: string; timeout: number }> }>> };
const hookFileOf = (file: string) => JSON.parse(readFileSync(file, "utf8")) as HookFile;
/** A PATH with no ctxinject on it, so the command is the same on every machine. */
const noCtxinject = () =>
  (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => dir !== "" && !existsSync(join(dir, "ctxinject")))
    .join(delimiter);

test("init --copilot writes .github/hooks/ctxinject.json with a command that runs here, says the folder must be trusted, and is idempotent", async () => {
  const root = materialize("claude-host");
  const first = await init(root, ["--copilot"], { PATH: noCtxinject() });
  assert.is(first.status, 0, first.stderr);
  const file = join(root, ".github/hooks/ctxinject.json");
  const written = hookFileOf(file);
  assert.is(written.version, 1);
  assert.equal(Object.keys(written.hooks), ["UserPromptSubmit", "PostToolUse"]);
  assert.is(written.hooks.PostToolUse![0]!.matcher, "Read|Edit|Write|Bash");
  for (const groups of Object.values(written.hooks))
    assert.equal(
      groups.flatMap((g) => g.hooks.map((h) => h.command)),
      [`node ${BIN} hook copilot`],
    );
  assert.not.match(readFileSync(file, "utf8"), root, "no path of the project folder");
  assert.match(first.stderr, "trusted");
  const again = await init(root, ["--copilot"], { PATH: noCtxinject() });
  assert.match(again.stderr, "unchanged");
});

test("init --copilot --user writes $COPILOT_HOME/hooks/ctxinject.json (default ~/.copilot/hooks) naming this ctxinject", async () => {
  const root = materialize("claude-host");
  const home = join(root, "home");
  mkdirSync(home);
  const user = await init(root, ["--copilot", "--user"], { HOME: home });
  assert.is(user.status, 0, user.stderr);
  assert.is(hookFileOf(join(home, ".copilot/hooks/ctxinject.json")).hooks.UserPromptSubmit![0]!.hooks[0]!.command, `node ${BIN} hook copilot`);
  const elsewhere = join(root, "copilot-home");
  assert.is((await init(root, ["--copilot", "--user"], { HOME: home, COPILOT_HOME: elsewhere })).status, 0);
  assert.ok(existsSync(join(elsewhere, "hooks/ctxinject.json")));
});

test("init without a flag, in a repository with copilot-instructions.md, says what init --copilot would write", async () => {
  const root = materialize("claude-host");
  mkdirSync(join(root, ".github"));
  writeFileSync(join(root, ".github/copilot-instructions.md"), "Prefer small pull requests.\n");
  const out = await init(root, [], { PATH: noCtxinject() });
  assert.is(out.status, 0, out.stderr);
  assert.match(
    out.stderr,
    `Copilot CLI (.github/copilot-instructions.md): \`ctxinject init --copilot\` would merge hooks running \`node ${BIN} hook copilot\` into .github/hooks/ctxinject.json`,
  );
  assert.match(out.stderr, "GitHub Copilot in the IDE (.github/copilot-instructions.md): no hook to install");
});

test("init --cursor writes .cursor/hooks.json v1 with flat entries (the user's hooks stay); again changes nothing", async () => {
  const root = materialize("claude-host");
  const file = join(root, ".cursor/hooks.json");
  mkdirSync(join(root, ".cursor"), { recursive: true });
  writeFileSync(file, JSON.stringify({ version: 1, hooks: { afterFileEdit: [{ command: "./format.sh" }], beforeSubmitPrompt: [{ command: "./audit.sh" }] } }));
  const first = await init(root, ["--cursor"]);
  assert.is(first.status, 0, first.stderr);
  const written = JSON.parse(readFileSync(file, "utf8"));
  assert.is(written.version, 1);
  assert.equal(written.hooks.afterFileEdit, [{ command: "./format.sh" }]);
  assert.is(written.hooks.beforeSubmitPrompt.length, 2, "the user's own hook stays");
  assert.match(written.hooks.sessionStart[0].command, /ctxinject.* hook cursor$/);
  assert.is(written.hooks.sessionStart[0].timeout, 10);
  assert.is(written.hooks.sessionStart[0].hooks, undefined, "no Claude-style matcher groups");
  assert.match((await init(root, ["--cursor"])).stderr, "unchanged");
});

test("init --droid merges SessionStart, UserPromptSubmit and PostToolUse hooks into .factory/settings.json through $FACTORY_PROJECT_DIR (other settings stay); again changes nothing; --user writes ~/.factory/settings.json", async () => {
  const root = materialize("claude-host");
  mkdirSync(join(root, ".factory"));
  writeFileSync(
    join(root, ".factory/settings.json"),
    JSON.stringify({ model: "custom:x", hooks: { SessionStart: [{ hooks: [{ type: "command", command: "echo mine" }] }] } }),
  );
  fakeLocalInstall(root);
  const first = await init(root, ["--droid"]);
  assert.is(first.status, 0, first.stderr);
  const text = readFileSync(join(root, ".factory/settings.json"), "utf8");
  const settings = JSON.parse(text);
  assert.is(settings.model, "custom:x");
  assert.equal(
    Object.keys(settings.hooks),
    ["SessionStart", "UserPromptSubmit", "PostToolUse"],
    "not PreToolUse: its text does not reach the model; UserPromptSubmit's does, in stream-jsonrpc",
  );
  assert.is(settings.hooks.SessionStart.length, 2, "the user's own hook stays");
  const command = '"$FACTORY_PROJECT_DIR"/node_modules/.bin/ctxinject hook droid';
  assert.equal(settings.hooks.PostToolUse, [{ matcher: "Read|Edit|MultiEdit|Create|ApplyPatch", hooks: [{ type: "command", command, timeout: 10 }] }]);
  assert.match((await init(root, ["--droid"])).stderr, "unchanged");
  assert.is(readFileSync(join(root, ".factory/settings.json"), "utf8"), text);
  const home = join(root, "home");
  mkdirSync(home);
  assert.is((await init(root, ["--droid", "--user"], { HOME: home })).status, 0);
  assert.is(JSON.parse(readFileSync(join(home, ".factory/settings.json"), "utf8")).hooks.SessionStart[0].hooks[0].command, `node ${BIN} hook droid`);
});

test("init --qwen merges SessionStart, UserPromptSubmit and PostToolUse hooks into .qwen/settings.json (other settings stay); again changes nothing; --user writes ~/.qwen/settings.json", async () => {
  const root = materialize("claude-host");
  mkdirSync(join(root, ".qwen"));
  writeFileSync(
    join(root, ".qwen/settings.json"),
    JSON.stringify({ model: { name: "qwen3" }, hooks: { PostToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "echo mine" }] }] } }),
  );
  fakeLocalInstall(root);
  const first = await init(root, ["--qwen"]);
  assert.is(first.status, 0, first.stderr);
  const text = readFileSync(join(root, ".qwen/settings.json"), "utf8");
  const settings = JSON.parse(text);
  assert.equal(settings.model, { name: "qwen3" });
  assert.equal(Object.keys(settings.hooks), ["PostToolUse", "SessionStart", "UserPromptSubmit"], "not PreToolUse: Qwen Code drops its text");
  assert.is(settings.hooks.PostToolUse.length, 2, "the user's own hook stays");
  assert.equal(settings.hooks.PostToolUse[1], {
    matcher: "read_file|edit|write_file",
    hooks: [{ type: "command", command: "node_modules/.bin/ctxinject hook qwen", timeout: 10 }],
  });
  assert.equal(settings.hooks.UserPromptSubmit, [{ hooks: [{ type: "command", command: "node_modules/.bin/ctxinject hook qwen", timeout: 10 }] }]);
  const again = await init(root, ["--qwen"]);
  assert.match(again.stderr, "unchanged");
  assert.is(readFileSync(join(root, ".qwen/settings.json"), "utf8"), text);
  assert.match((await init(root, [])).stderr, "Qwen Code (.qwen/): installed (.qwen/settings.json)");
  const home = join(root, "home");
  mkdirSync(home);
  assert.is((await init(root, ["--qwen", "--user"], { HOME: home })).status, 0);
  assert.is(JSON.parse(readFileSync(join(home, ".qwen/settings.json"), "utf8")).hooks.SessionStart[0].hooks[0].command, `node ${BIN} hook qwen`);
});

test.run();
