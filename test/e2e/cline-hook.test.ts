/**
 * `ctxinject hook cline` with the events the Cline plugin hands over (fields recorded from Cline CLI 3.0.65's
 * beforeRun and afterTool contexts), `init --cline`, and the plugin itself called in-process as Cline calls it.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BIN, cleanup, HOOK_SERVER_OFF, materialize, REPO, runCli } from "../helpers/cli.js";

const temp: string[] = [];
test.after(() => {
  cleanup();
  for (const dir of temp.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `ctxinject-${name}-`));
  temp.push(dir);
  return dir;
};

/** claude-host with the files Cline loads itself: the root AGENTS.md (already there) and a .clinerules rule. */
function setup() {
  const root = materialize("claude-host");
  mkdirSync(join(root, ".clinerules"));
  writeFileSync(join(root, ".clinerules/style.md"), "Prefer small functions. (MARK-CLINERULES)\n");
  const state = tempDir("cline-state");
  const hook = (event: Record<string, unknown>) => runCli(["hook", "cline"], { cwd: "/", env: { ...HOOK_SERVER_OFF, CTXINJECT_STATE_DIR: state }, input: JSON.stringify({ session_id: "1795555865405_5oogg", cwd: root, ...event }) });
  return { root, state, hook };
}

const contextOf = (stdout: string): string => (JSON.parse(stdout) as { appendContext: string }).appendContext;
const prompt = (text: string) => ({ hook_event_name: "beforeRun", prompt: `<user_input mode="act">${text}</user_input>` });
const read = (file: string, extra: Record<string, unknown> = {}) => ({ hook_event_name: "afterTool", tool_name: "read_files", tool_input: { file_paths: [file] }, ...extra });

test("cline: a prompt naming a file brings its rules as appendContext, not what Cline loads itself; the same prompt again brings nothing", () => {
  const { hook } = setup();
  const out = hook(prompt("fix the retry in src/net/client.ts"));
  assert.is(out.status, 0, out.stderr);
  const context = contextOf(out.stdout);
  assert.match(context, "MARK-NET-RULE");
  assert.not.match(context, "MARK-AGENTS-ROOT", "Cline reads the root AGENTS.md itself");
  assert.not.match(context, "MARK-CLINERULES", "Cline applies .clinerules itself");
  assert.not.match(context, "user_input", "the wrapper is Cline's, not the prompt");
  const again = hook(prompt("fix the retry in src/net/client.ts"));
  assert.is(again.status, 0, again.stderr);
  assert.is(again.stdout, "");
});

test("cline: read_files of a nested file brings its rules and its folder's AGENTS.md once; a tool that names no file brings nothing", () => {
  const { root, hook } = setup();
  const out = hook(read(join(root, "packages/api/src/handler.ts")));
  assert.is(out.status, 0, out.stderr);
  const context = contextOf(out.stdout);
  assert.match(context, "MARK-API-RULE");
  assert.match(context, "MARK-API-AGENTS");
  assert.is(hook(read(join(root, "packages/api/src/handler.ts"))).stdout, "");
  assert.is(hook({ hook_event_name: "afterTool", tool_name: "run_commands", tool_input: { commands: ["ls"] } }).stdout, "");
});

test("cline: the editor and apply_patch bring the rules of the file they change", () => {
  const { hook } = setup();
  assert.match(contextOf(hook({ hook_event_name: "afterTool", tool_name: "editor", tool_input: { command: "create", path: "src/net/retry.ts", new_text: "" } }).stdout), "MARK-NET-RULE");
  const patch = "*** Begin Patch\n*** Update File: packages/api/src/handler.ts\n@@\n-a\n+b\n*** End Patch\n";
  assert.match(contextOf(hook({ hook_event_name: "afterTool", tool_name: "apply_patch", tool_input: { input: patch } }).stdout), "MARK-API-RULE");
});

test("cline: a subagent (its own agent id) gets the rules its task needs though the main agent had them", () => {
  const { root, hook } = setup();
  assert.match(contextOf(hook(read(join(root, "packages/api/src/handler.ts"))).stdout), "MARK-API-RULE");
  const sub = { agent_id: "agent_1795555871060_vabk8t" };
  const task = hook({ hook_event_name: "beforeRun", prompt: "Explain packages/api/src/handler.ts", ...sub });
  assert.is(task.status, 0, task.stderr);
  assert.match(contextOf(task.stdout), "MARK-API-RULE");
  assert.is(hook(read(join(root, "packages/api/src/handler.ts"), sub)).stdout, "", "the subagent has had them");
});

test("init --cline writes the plugin into .cline/plugins, naming no path of this machine; again it changes nothing", () => {
  const { root } = setup();
  const home = tempDir("cline-home");
  const first = runCli(["init", "--cline"], { cwd: root, env: { HOME: home } });
  assert.is(first.status, 0, first.stderr);
  const plugin = readFileSync(join(root, ".cline/plugins/ctxinject.js"), "utf8");
  assert.match(plugin, '"hook", "cline"');
  for (const machine of [REPO, root, home, tmpdir()]) assert.not.match(plugin, machine);
  assert.match(runCli(["init", "--cline"], { cwd: root, env: { HOME: home } }).stderr, "unchanged");
  assert.match(runCli(["init"], { cwd: root, env: { HOME: home } }).stderr, "Cline CLI (.cline/, .clinerules): installed (.cline/plugins/ctxinject.js)");
});

test("init --cline --user writes the plugin into ~/.cline/plugins (or $CLINE_DIR/plugins), not into the project", () => {
  const { root } = setup();
  const home = tempDir("cline-home");
  assert.is(runCli(["init", "--cline", "--user"], { cwd: root, env: { HOME: home } }).status, 0);
  assert.ok(existsSync(join(home, ".cline/plugins/ctxinject.js")));
  assert.not.ok(existsSync(join(root, ".cline/plugins/ctxinject.js")));
  const dir = tempDir("cline-dir");
  assert.is(runCli(["init", "--cline", "--user"], { cwd: root, env: { HOME: home, CLINE_DIR: dir } }).status, 0);
  assert.ok(existsSync(join(dir, "plugins/ctxinject.js")));
});

test("the plugin, called as Cline calls it, finds the project's ctxinject and returns its appendContext for the main agent and a subagent", async () => {
  const { root, state } = setup();
  mkdirSync(join(root, "node_modules/.bin"), { recursive: true });
  symlinkSync(REPO, join(root, "node_modules/ctxinject"));
  symlinkSync(BIN, join(root, "node_modules/.bin/ctxinject"));
  assert.is(runCli(["init", "--cline"], { cwd: root }).status, 0);
  const saved = { ...process.env };
  Object.assign(process.env, HOOK_SERVER_OFF, { CTXINJECT_STATE_DIR: state });
  try {
    type Snapshot = { agentId: string; parentAgentId?: string; conversationId: string; messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> };
    type Plugin = { setup(api: unknown, ctx: unknown): void; hooks: { beforeRun(c: { snapshot: Snapshot }): Promise<{ appendContext: string } | undefined>; afterTool(c: unknown): Promise<{ appendContext: string } | undefined> } };
    const plugin = ((await import(pathToFileURL(join(root, ".cline/plugins/ctxinject.js")).href)) as { default: Plugin }).default;
    plugin.setup({}, { session: { sessionId: "1795555865405_5oogg" }, workspaceInfo: { rootPath: root } });
    const user = (text: string) => [{ role: "user", content: [{ type: "text", text }] }];
    const main = await plugin.hooks.beforeRun({ snapshot: { agentId: "agent_1", conversationId: "conv_1", messages: user('<user_input mode="act">fix src/net/client.ts</user_input>') } });
    assert.match(main?.appendContext ?? "", "MARK-NET-RULE");
    assert.is(await plugin.hooks.beforeRun({ snapshot: { agentId: "agent_1", conversationId: "conv_1", messages: user('<user_input mode="act">fix src/net/client.ts</user_input>') } }), undefined);
    const sub = await plugin.hooks.beforeRun({ snapshot: { agentId: "agent_2", parentAgentId: "agent_1", conversationId: "conv_2", messages: user("Look at src/net/client.ts") } });
    assert.match(sub?.appendContext ?? "", "MARK-NET-RULE");
    const tool = await plugin.hooks.afterTool({ snapshot: { agentId: "agent_1", conversationId: "conv_1", messages: [] }, toolCall: { toolName: "read_files" }, input: { file_paths: [join(root, "packages/api/src/handler.ts")] } });
    assert.match(tool?.appendContext ?? "", "MARK-API-AGENTS");
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
});

test.run();
