/**
 * What a session is given counts as given only once the answer is out: a hook, `build --session` and mcp's
 * get_context whose answer fails to write give nothing, so the session's next call has it all.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CliContext } from "../../src/cli/context.js";
import { createMcpServer } from "../../src/integrations/mcp-server.js";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

test.after(cleanup);

function setup() {
  const root = materialize("monorepo");
  const state = folder("commit");
  return { root, state, env: { CTXINJECT_STATE_DIR: state } };
}

/** A stdout whose every write fails, as a pipe whose reader went away. */
const brokenPipe: CliContext["stdout"] = {
  write(_chunk: string, callback?: (error?: Error | null) => void) {
    callback?.(new Error("EPIPE: the host closed its end"));
    return false;
  },
};

const RULE = "Every handler checks the caller's permissions first.";
const NOTE = "Registered note MARK-NOTE-1.";

test("a hook answer that fails to write gives nothing: the next event of the session gets the rules and the registered entry, once", async () => {
  const { root, env } = setup();
  assert.is((await runMain(["register", "--session", "s-1", "--source", "git-hook", "--id", "note", "--content", NOTE], { env })).status, 0);
  const input = JSON.stringify({
    session_id: "s-1",
    cwd: root,
    hook_event_name: "PostToolUse",
    tool_name: "Read",
    tool_input: { file_path: join(root, "packages/api/src/handlers/user.ts") },
  });
  const failed = await runMain(["hook", "claude"], { cwd: "/", env, input, stdout: brokenPipe });
  assert.is(failed.status, 1);
  assert.match(failed.stderr, "ctxinject hook claude: EPIPE");
  const pending = JSON.parse((await runMain(["pending", "--session", "s-1", "--format", "json"], { env })).stdout) as { entries: Array<{ content: string }> };
  assert.equal(
    pending.entries.map((e) => e.content),
    [NOTE],
    "the entry is pending again",
  );
  const next = await runMain(["hook", "claude"], { cwd: "/", env, input });
  assert.is(next.status, 0, next.stderr);
  const context = JSON.parse(next.stdout).hookSpecificOutput.additionalContext as string;
  assert.match(context, RULE);
  assert.match(context, NOTE);
  const again = await runMain(["hook", "claude"], { cwd: "/", env, input });
  assert.is(again.stdout, "", "written once, given for good");
});

test("build --session whose output fails to write leaves its entries pending and its files not given", async () => {
  const { root, env } = setup();
  assert.is((await runMain(["register", "--session", "b-1", "--source", "git-hook", "--id", "note", "--content", NOTE], { env })).status, 0);
  const args = ["build", "--root", root, "--session", "b-1", "--files", "packages/api/src/handlers/user.ts"];
  const failed = await runMain(args, { env, stdout: brokenPipe });
  assert.is.not(failed.status, 0);
  const built = await runMain(args, { env });
  assert.is(built.status, 0, built.stderr);
  assert.match(built.stdout, RULE);
  assert.match(built.stdout, NOTE);
  const again = await runMain(args, { env });
  assert.not.match(again.stdout, RULE);
  assert.not.match(again.stdout, NOTE);
});

test("mcp: a get_context answer that is never sent gives nothing; the connection's next get_context has it", async () => {
  const { root, state } = setup();
  const server = createMcpServer({
    run: { cwd: root, env: { ...process.env, CTXINJECT_STATE_DIR: state }, platform: process.platform },
    root,
    version: "0.0.0",
    session: "mcp-test",
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  // The first answer to a tool call is lost on its way (the client's pipe broke while it was written); the client,
  // waiting for it, gives up then.
  const send = serverSide.send.bind(serverSide);
  const giveUp = new AbortController();
  let lose = true;
  serverSide.send = async (message, options) => {
    if (lose && "result" in message && "content" in (message.result as object)) {
      lose = false;
      setTimeout(() => giveUp.abort(), 0);
      throw new Error("EPIPE");
    }
    return send(message, options);
  };
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "0.0.0" });
  await client.connect(clientSide);
  const call = (signal?: AbortSignal) =>
    client.callTool({ name: "get_context", arguments: { files: ["packages/api/src/handlers/user.ts"] } }, undefined, { ...(signal && { signal }) });
  await call(giveUp.signal).then(
    () => assert.unreachable("the lost answer never arrives"),
    () => undefined,
  );
  const next = (await call()) as { content: Array<{ text: string }> };
  assert.match(next.content[0]!.text, RULE);
  const again = (await call()) as { content: Array<{ text: string }> };
  assert.not.match(again.content[0]!.text, RULE, "sent once, given for good");
  await client.close();
  await server.close();
});

test.run();
