/**
 * Hooks as processes, where the process is the subject: the test helpers' guard on a spawned hook's path, hooks run
 * at once by separate processes on one session (the session store's claims between processes), and the Cline plugin
 * file, which runs `ctxinject hook cline` as a process. What each host's events are answered with is
 * host-hooks.test.ts's (in-process).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BIN, cleanup, HOOK_SERVER_OFF, materialize, REPO, runCli } from "../helpers/cli.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

test.after(cleanup);

test("the test helpers refuse a hook run that does not say which path answers it", () => {
  const input = JSON.stringify({ session_id: "s-0", cwd: "/", hook_event_name: "UserPromptSubmit", prompt: "hello" });
  // The inherited environment never says it: a server already running on the machine could answer.
  assert.throws(() => runCli(["hook", "claude"], { cwd: "/", input }), /which path answers a hook/);
  assert.throws(
    () => runCli(["hook", "claude"], { cwd: "/", input, env: { XDG_RUNTIME_DIR: "/tmp" } }),
    /which path answers a hook/,
    "a spool of its own needs a state folder of its own too",
  );
  assert.is(runCli(["hook", "claude"], { cwd: "/", input, env: HOOK_SERVER_OFF }).status, 0);
});

test("32 hooks at once on one session (parallel subagents' reads) give each registered entry to exactly one of them", async () => {
  const root = materialize("monorepo");
  const state = folder("hook");
  const entries = 40;
  for (let i = 0; i < entries; i++) {
    const r = runCli(["register", "--session", "busy", "--source", "git-hook", "--id", `note-${i}`, "--content", `Registered note MARK-${i}-END.`], {
      env: { CTXINJECT_STATE_DIR: state },
    });
    assert.is(r.status, 0, r.stderr);
  }
  const files = ["packages/api/src/handlers/user.ts", "packages/web/src/components/Button.tsx", "README.md", "package.json"];
  const runs = await Promise.all(
    Array.from({ length: 32 }, (_, i) => {
      const event = JSON.stringify({
        session_id: "busy",
        cwd: root,
        hook_event_name: "PostToolUse",
        tool_name: "Read",
        tool_input: { file_path: join(root, files[i % files.length]!) },
      });
      return new Promise<{ status: number | null; stdout: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, "hook", "claude"], {
          env: { ...process.env, NO_COLOR: "1", ...HOOK_SERVER_OFF, CTXINJECT_STATE_DIR: state },
          stdio: ["pipe", "pipe", "ignore"],
        });
        let stdout = "";
        child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
        child.on("close", (status) => resolve({ status, stdout }));
        child.stdin.end(event);
      });
    }),
  );
  assert.ok(runs.every((r) => r.status === 0));
  const contextOf = (stdout: string) => {
    const value = JSON.parse(stdout);
    assert.is(value.hookSpecificOutput.hookEventName, "PostToolUse");
    return value.hookSpecificOutput.additionalContext as string;
  };
  const all = runs.map((r) => (r.stdout.trim() === "" ? "" : contextOf(r.stdout))).join("\n");
  for (let i = 0; i < entries; i++) assert.is(all.split(`MARK-${i}-END`).length - 1, 1, `entry ${i} delivered once`);
  assert.equal(
    JSON.parse(runCli(["pending", "--session", "busy", "--format", "json"], { env: { CTXINJECT_STATE_DIR: state } }).stdout).entries,
    [],
    "nothing left pending",
  );
});

test("the Cline plugin, called as Cline calls it, finds the project's ctxinject and returns its appendContext for the main agent and a subagent", async () => {
  const root = materialize("claude-host");
  mkdirSync(join(root, ".clinerules"));
  writeFileSync(join(root, ".clinerules/style.md"), "Prefer small functions. (MARK-CLINERULES)\n");
  const state = folder("cline-state");
  mkdirSync(join(root, "node_modules/.bin"), { recursive: true });
  symlinkSync(REPO, join(root, "node_modules/ctxinject"));
  symlinkSync(BIN, join(root, "node_modules/.bin/ctxinject"));
  assert.is(runCli(["init", "--cline"], { cwd: root }).status, 0);
  const saved = { ...process.env };
  Object.assign(process.env, HOOK_SERVER_OFF, { CTXINJECT_STATE_DIR: state });
  try {
    type Snapshot = {
      agentId: string;
      parentAgentId?: string;
      conversationId: string;
      messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }>;
    };
    type Plugin = {
      setup(api: unknown, ctx: unknown): void;
      hooks: {
        beforeRun(c: { snapshot: Snapshot }): Promise<{ appendContext: string } | undefined>;
        afterTool(c: unknown): Promise<{ appendContext: string } | undefined>;
      };
    };
    const plugin = ((await import(pathToFileURL(join(root, ".cline/plugins/ctxinject.js")).href)) as { default: Plugin }).default;
    plugin.setup({}, { session: { sessionId: "1795555865405_5oogg" }, workspaceInfo: { rootPath: root } });
    const user = (text: string) => [{ role: "user", content: [{ type: "text", text }] }];
    const main = await plugin.hooks.beforeRun({
      snapshot: { agentId: "agent_1", conversationId: "conv_1", messages: user('<user_input mode="act">fix src/net/client.ts</user_input>') },
    });
    assert.match(main?.appendContext ?? "", "MARK-NET-RULE");
    assert.is(
      await plugin.hooks.beforeRun({
        snapshot: { agentId: "agent_1", conversationId: "conv_1", messages: user('<user_input mode="act">fix src/net/client.ts</user_input>') },
      }),
      undefined,
    );
    const sub = await plugin.hooks.beforeRun({
      snapshot: { agentId: "agent_2", parentAgentId: "agent_1", conversationId: "conv_2", messages: user("Look at src/net/client.ts") },
    });
    assert.match(sub?.appendContext ?? "", "MARK-NET-RULE");
    const tool = await plugin.hooks.afterTool({
      snapshot: { agentId: "agent_1", conversationId: "conv_1", messages: [] },
      toolCall: { toolName: "read_files" },
      input: { file_paths: [join(root, "packages/api/src/handler.ts")] },
    });
    assert.match(tool?.appendContext ?? "", "MARK-API-AGENTS");
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
});

test.run();
