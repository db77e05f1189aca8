/**
 * The opencode plugin in process, with the hook inputs opencode 1.18.33 passes (recorded from the real CLI; the
 * real CLI itself runs in test/hosts/opencode.test.ts).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Hooks, PluginInput } from "@opencode-ai/plugin";
import CtxinjectPlugin from "../../src/integrations/opencode.js";
import { opencodePluginSource } from "../../src/io/host-setup/opencode-setup.js";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { stateDirWhileRunning } from "../helpers/state-env.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

type ChatOutput = Parameters<NonNullable<Hooks["chat.message"]>>[1];
type EventInput = Parameters<NonNullable<Hooks["event"]>>[0];

const state = stateDirWhileRunning(test, "ctxinject-opencode-state-");
test.after(cleanup);

let sessions = 0;
const newSession = () => `ses_test${++sessions}`;

/** The plugin on a copy of the fixture; `logged` gathers what it sends to opencode's log. */
async function plugin(prepare?: (root: string) => void) {
  const root = materialize("claude-host");
  prepare?.(root);
  const logged: Array<{ level: string; message: string }> = [];
  const client = { app: { log: async ({ body }: { body: { level: string; message: string } }) => void logged.push(body) } };
  // Only the fields the plugin reads; the rest of PluginInput (shell, project…) is the host's.
  const hooks = await CtxinjectPlugin({ directory: root, worktree: root, client } as unknown as PluginInput);
  return { root, hooks, logged };
}

async function tool(hooks: Hooks, sessionID: string, name: string, args: Record<string, unknown>, output = "file text"): Promise<string> {
  const result = { title: "", output, metadata: {} };
  await hooks["tool.execute.after"]!({ tool: name, sessionID, callID: "call_1", args }, result);
  return result.output.slice(output.length);
}

async function chat(hooks: Hooks, sessionID: string, text: string, extra: ChatOutput["parts"] = []): Promise<ChatOutput["parts"]> {
  const output = {
    message: { id: "msg_1", sessionID, role: "user", time: { created: 1 }, agent: "build", model: { providerID: "p", modelID: "m" } },
    parts: [{ id: "prt_1", sessionID, messageID: "msg_1", type: "text", text }, ...extra],
  } as unknown as ChatOutput;
  await hooks["chat.message"]!({ sessionID }, output);
  return output.parts;
}

const added = (parts: ChatOutput["parts"]) => parts.filter((p) => p.type === "text" && p.synthetic) as Array<{ id: string; text: string }>;

test("a read: the file's rules are appended to the read result; its AGENTS.md is not (opencode adds it to reads itself)", async () => {
  const { root, hooks } = await plugin();
  const text = await tool(hooks, newSession(), "read", { filePath: join(root, "packages/api/src/handler.ts") });
  assert.match(text, "MARK-API-RULE");
  assert.not.match(text, "MARK-API-AGENTS");
  assert.not.match(text, "MARK-AGENTS-ROOT", "nor the root AGENTS.md, which opencode loads at start");
});

test("a prompt naming a nested file: its rules, not its AGENTS.md (opencode appends it to the read of that file, which follows); a read then adds none, an edit without one brings it", async () => {
  const { root, hooks } = await plugin();
  const file = join(root, "packages/api/src/handler.ts");
  const session = newSession();
  const text = added(await chat(hooks, session, "fix the bug in packages/api/src/handler.ts"))
    .map((p) => p.text)
    .join("\n");
  assert.match(text, "MARK-API-RULE");
  assert.not.match(text, "MARK-API-AGENTS");
  assert.not.match(await tool(hooks, session, "read", { filePath: file }), "MARK-API-AGENTS");
  const other = newSession();
  await chat(hooks, other, "fix the bug in packages/api/src/handler.ts");
  assert.match(await tool(hooks, other, "edit", { filePath: file, oldString: "a", newString: "b" }), "MARK-API-AGENTS");
});

test("a prompt naming only a nested folder keeps its AGENTS.md", async () => {
  const { hooks } = await plugin();
  assert.match(
    added(await chat(hooks, newSession(), "what lives in packages/api/?"))
      .map((p) => p.text)
      .join("\n"),
    "MARK-API-AGENTS",
  );
});

test("a write: opencode adds nothing, so the folder's AGENTS.md comes with the rules", async () => {
  const { root, hooks } = await plugin();
  const text = await tool(hooks, newSession(), "write", { filePath: join(root, "packages/api/src/routes.ts"), content: "" });
  assert.match(text, "MARK-API-RULE");
  assert.match(text, "MARK-API-AGENTS");
});

test("the same file twice in one session: the second result gets nothing; another session gets it again", async () => {
  const { root, hooks } = await plugin();
  const file = join(root, "src/net/client.ts");
  const session = newSession();
  assert.match(await tool(hooks, session, "read", { filePath: file }), "MARK-NET-RULE");
  assert.is(await tool(hooks, session, "edit", { filePath: file, oldString: "a", newString: "b" }), "");
  assert.match(await tool(hooks, newSession(), "read", { filePath: file }), "MARK-NET-RULE");
});

test("apply_patch, grep and glob: the files they name bring their rules; other tools bring nothing", async () => {
  const { root, hooks } = await plugin();
  const patch = "*** Begin Patch\n*** Update File: src/net/client.ts\n@@\n-a\n+b\n*** End Patch";
  assert.match(await tool(hooks, newSession(), "apply_patch", { patchText: patch }), "MARK-NET-RULE");
  const grep = `Found 1 matches\n${join(root, "packages/api/src/handler.ts")}:\n  Line 1: export function handle(): void {}`;
  assert.match(await tool(hooks, newSession(), "grep", { pattern: "handle" }, grep), "MARK-API-RULE");
  assert.match(await tool(hooks, newSession(), "glob", { pattern: "**/*.tsx" }, join(root, "web/page.tsx")), "MARK-CLAUDE-PATHS");
  assert.is(await tool(hooks, newSession(), "bash", { command: "ls" }), "");
});

test("a new user message: what build gives for its text is added as a synthetic part after it", async () => {
  const { hooks } = await plugin();
  const parts = await chat(hooks, newSession(), "fix the retry in src/net/client.ts");
  const [block] = added(parts);
  assert.ok(block, "a part was added");
  assert.match(block!.text, "MARK-NET-RULE");
  assert.match(block!.text, "MARK-ROOT-CURSORRULES", "always-on rules too");
  assert.not.match(block!.text, "MARK-AGENTS-ROOT", "opencode loads the root AGENTS.md itself");
  assert.ok(block!.id > "prt_1", "ordered after the user's text");
});

test("keyword modes and attached files count; the same prompt again in the session adds nothing", async () => {
  const { root, hooks } = await plugin();
  const session = newSession();
  const file = {
    id: "prt_2",
    sessionID: session,
    messageID: "msg_1",
    type: "file",
    mime: "text/plain",
    filename: "page.tsx",
    url: pathToFileURL(join(root, "web/page.tsx")).href,
  };
  const [block] = added(await chat(hooks, session, "ulw tidy this", [file as unknown as ChatOutput["parts"][number]]));
  assert.match(block!.text, "ULTRAWORK MODE");
  assert.match(block!.text, "MARK-CLAUDE-PATHS");
  assert.is(added(await chat(hooks, session, "tidy this")).length, 0);
});

test("entries registered from outside (ctxinject register --session) arrive with the next message", async () => {
  const { root, hooks } = await plugin();
  const session = newSession();
  const registered = await runMain(
    ["register", "--session", session, "--source", "ci", "--id", "status", "--content", "The nightly build is red. (MARK-REGISTERED)"],
    { cwd: root, env: { CTXINJECT_STATE_DIR: state } },
  );
  assert.is(registered.status, 0, registered.stderr);
  assert.match(added(await chat(hooks, session, "what next?"))[0]!.text, "MARK-REGISTERED");
});

test("session.compacted lets files be injected again; session.deleted forgets the session", async () => {
  const { root, hooks } = await plugin();
  const file = join(root, "src/net/client.ts");
  const session = newSession();
  await tool(hooks, session, "read", { filePath: file });
  await hooks.event!({ event: { type: "session.compacted", properties: { sessionID: session } } } as unknown as EventInput);
  assert.match(await tool(hooks, session, "read", { filePath: file }), "MARK-NET-RULE");
  await hooks.event!({ event: { type: "session.deleted", properties: { info: { id: session } } } } as unknown as EventInput);
  assert.match(await tool(hooks, session, "read", { filePath: file }), "MARK-NET-RULE");
});

test("experimental.session.compacting adds the digest of what was in force to the compaction, and the rules come back on use", async () => {
  const { root, hooks } = await plugin();
  const file = join(root, "src/net/client.ts");
  const session = newSession();
  assert.match(await tool(hooks, session, "read", { filePath: file }), "MARK-NET-RULE");
  const output = { context: [] as string[] };
  await hooks["experimental.session.compacting"]!({ sessionID: session }, output);
  assert.is(output.context.length, 1);
  assert.match(output.context[0]!, "## Instructions in force before this conversation was compacted");
  assert.match(output.context[0]!, ".cursor/rules/net.mdc");
  assert.match(await tool(hooks, session, "read", { filePath: file }), "MARK-NET-RULE", "full texts come back on use");
  const none = { context: [] as string[] };
  await hooks["experimental.session.compacting"]!({ sessionID: newSession() }, none);
  assert.equal(none.context, [], "a session that was given nothing gets no digest");
});

test("a broken config: the tool result is left as it was, and opencode's log says why", async () => {
  const { root, hooks, logged } = await plugin((r) => writeFileSync(join(r, ".ctxinjectrc.json"), "{ not json"));
  assert.is(await tool(hooks, newSession(), "read", { filePath: join(root, "src/net/client.ts") }), "");
  assert.is(logged.length, 1);
  assert.is(logged[0]!.level, "error");
  assert.match(logged[0]!.message, ".ctxinjectrc.json");
});

test("the plugin file init writes names no path of this machine, loads the ctxinject on PATH, and says in opencode's log when there is none", async () => {
  const dir = folder("loader");
  const path = process.env.PATH;
  try {
    const source = opencodePluginSource();
    assert.not.match(source, process.cwd());
    assert.not.match(source, /file:\/\//);
    // Outside any project with ctxinject installed: only PATH can lead to it (npm links bin/ctxinject.js there).
    mkdirSync(join(dir, "bin"));
    symlinkSync(join(process.cwd(), "bin/ctxinject.js"), join(dir, "bin/ctxinject"));
    const good = join(dir, "good.mjs");
    writeFileSync(good, source);
    process.env.PATH = [join(dir, "bin"), path].join(delimiter);
    const loaded = (await import(pathToFileURL(good).href)) as { CtxinjectPlugin: unknown };
    assert.is(loaded.CtxinjectPlugin, (await import("../../dist/integrations/opencode.js")).CtxinjectPlugin);

    const bad = join(dir, "bad.mjs");
    writeFileSync(bad, source);
    process.env.PATH = join(dir, "nowhere");
    const { CtxinjectPlugin: fallback } = (await import(pathToFileURL(bad).href)) as { CtxinjectPlugin: (input: unknown) => Promise<object> };
    const logged: string[] = [];
    const original = console.error;
    console.error = () => {};
    try {
      assert.equal(await fallback({ client: { app: { log: async ({ body }: { body: { message: string } }) => void logged.push(body.message) } } }), {});
    } finally {
      console.error = original;
    }
    assert.is(logged.length, 1);
    assert.match(logged[0]!, "could not be loaded");
    assert.match(logged[0]!, "no ctxinject on PATH");
  } finally {
    process.env.PATH = path;
  }
});

test("init --opencode writes the plugin file and .opencode/package.json (keeping what was there); again changes nothing", async () => {
  const root = materialize("claude-host");
  const first = await runMain(["init", "--opencode", "--no-install"], { cwd: root });
  assert.is(first.status, 0, first.stderr);
  assert.match(first.stderr, "wrote");
  assert.match(first.stderr, "npm install --prefix .opencode");
  const again = await runMain(["init", "--opencode", "--no-install"], { cwd: root });
  assert.match(again.stderr, `unchanged ${join(root, ".opencode/plugins/ctxinject.js")}`);
  writeFileSync(join(root, ".opencode/package.json"), JSON.stringify({ name: "mine", dependencies: { zod: "^3" } }));
  await runMain(["init", "--opencode", "--no-install"], { cwd: root });
  const manifest = JSON.parse((await import("node:fs")).readFileSync(join(root, ".opencode/package.json"), "utf8"));
  assert.equal(manifest, { name: "mine", dependencies: { zod: "^3", "@opencode-ai/plugin": "1.18.33" } });
});

test.run();
