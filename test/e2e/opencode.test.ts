import { test } from "uvu";
import * as assert from "uvu/assert";
import { join } from "node:path";
import type { Hooks, PluginInput } from "@opencode-ai/plugin";
import CtxinjectPlugin from "../../src/integrations/opencode.js";
import { cleanup, materialize } from "../helpers/cli.js";

test.after(cleanup);

type Transform = Parameters<NonNullable<Hooks["experimental.chat.messages.transform"]>>[1];
type Message = Transform["messages"][number];
type EventInput = Parameters<NonNullable<Hooks["event"]>>[0];

async function plugin() {
  const root = materialize("monorepo");
  // Only the fields the plugin reads; the rest of PluginInput (client, shell…) is the host's.
  const hooks = await CtxinjectPlugin({ directory: root, worktree: root } as unknown as PluginInput);
  return { root, hooks };
}

const userMessage = (sessionID: string, text: string): Message => ({
  info: { id: "msg_1", sessionID, role: "user", time: { created: 1 }, agent: "build", model: { providerID: "p", modelID: "m" } },
  parts: [{ id: "prt_1", sessionID, messageID: "msg_1", type: "text", text }],
});

const afterRead = async (hooks: Hooks, sessionID: string, filePath: string) =>
  hooks["tool.execute.after"]!({ tool: "read", sessionID, callID: "c1", args: { filePath } }, { title: "", output: "", metadata: {} });

const transform = async (hooks: Hooks, messages: Message[]) => {
  const output: Transform = { messages };
  await hooks["experimental.chat.messages.transform"]!({}, output);
  return output.messages;
};

test("a read registers the file's rules; the next transform inserts them before the user's text", async () => {
  const { root, hooks } = await plugin();
  await afterRead(hooks, "ses_a", join(root, "packages/api/src/handlers/user.ts"));
  const [message] = await transform(hooks, [userMessage("ses_a", "fix the handler")]);
  assert.is(message!.parts.length, 2);
  const [inserted, original] = message!.parts as Array<{ type: string; text: string; synthetic?: boolean }>;
  assert.ok(inserted!.synthetic);
  assert.match(inserted!.text, "Every handler checks the caller's permissions first.");
  assert.match(inserted!.text, "<!-- rules-injector: packages/api/.cursor/rules/handlers.mdc (critical) -->");
  assert.not.match(inserted!.text, "Use pnpm; never commit", "opencode loads the root AGENTS.md itself");
  assert.is(original!.text, "fix the handler");
});

test("the user's words switch on keyword modes, before file context of lower priority", async () => {
  const { hooks } = await plugin();
  const [message] = await transform(hooks, [userMessage("ses_k", "ulw finish the migration")]);
  const inserted = message!.parts[0] as { text: string; synthetic?: boolean };
  assert.ok(inserted.synthetic);
  assert.match(inserted.text, "ULTRAWORK MODE");
  const [plain] = await transform(hooks, [userMessage("ses_k", "thanks")]);
  assert.is(plain!.parts.length, 1, "no mode, nothing pending: nothing inserted");
});

test("pending context is consumed once", async () => {
  const { root, hooks } = await plugin();
  await afterRead(hooks, "ses_b", join(root, "packages/web/src/components/Button.tsx"));
  await transform(hooks, [userMessage("ses_b", "one")]);
  const [second] = await transform(hooks, [userMessage("ses_b", "two")]);
  assert.is(second!.parts.length, 1);
});

test("the same file read twice is registered once", async () => {
  const { root, hooks } = await plugin();
  const file = join(root, "packages/web/src/components/Button.tsx");
  await afterRead(hooks, "ses_c", file);
  await transform(hooks, [userMessage("ses_c", "one")]);
  await afterRead(hooks, "ses_c", file);
  const [again] = await transform(hooks, [userMessage("ses_c", "two")]);
  assert.is(again!.parts.length, 1, "nothing new to insert");
});

test("nothing is consumed when the last user message has no text part of the user's", async () => {
  const { root, hooks } = await plugin();
  await afterRead(hooks, "ses_d", join(root, "packages/api/src/handlers/user.ts"));
  const noText: Message = { ...userMessage("ses_d", "x"), parts: [] };
  await transform(hooks, [noText]);
  const [later] = await transform(hooks, [userMessage("ses_d", "now")]);
  assert.is(later!.parts.length, 2, "still pending for the next message");
});

test("other tools register nothing; sessions are separate", async () => {
  const { root, hooks } = await plugin();
  await hooks["tool.execute.after"]!({ tool: "bash", sessionID: "ses_e", callID: "c", args: { command: "ls" } }, { title: "", output: "", metadata: {} });
  await afterRead(hooks, "ses_f", join(root, "packages/api/src/handlers/user.ts"));
  const [e] = await transform(hooks, [userMessage("ses_e", "x")]);
  assert.is(e!.parts.length, 1);
});

test("session.deleted clears pending context; session.compacted lets files be injected again", async () => {
  const { root, hooks } = await plugin();
  const file = join(root, "packages/api/src/handlers/user.ts");
  await afterRead(hooks, "ses_g", file);
  const deleted = { event: { type: "session.deleted", properties: { info: { id: "ses_g" } } } } as unknown as EventInput;
  await hooks.event!(deleted);
  const [afterDelete] = await transform(hooks, [userMessage("ses_g", "x")]);
  assert.is(afterDelete!.parts.length, 1);

  await afterRead(hooks, "ses_h", file);
  await transform(hooks, [userMessage("ses_h", "x")]);
  await hooks.event!({ event: { type: "session.compacted", properties: { sessionID: "ses_h" } } });
  await afterRead(hooks, "ses_h", file);
  const [afterCompact] = await transform(hooks, [userMessage("ses_h", "y")]);
  assert.is(afterCompact!.parts.length, 2);
});

test.run();
