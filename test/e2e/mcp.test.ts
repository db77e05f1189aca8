import { test } from "uvu";
import * as assert from "uvu/assert";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BIN, cleanup, materialize } from "../helpers/cli.js";

// The server as an MCP client sees it: the built bin spawned over a real stdio pipe, driven by the SDK's own client.

test.after(cleanup);

async function connect(root: string): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp"], cwd: root, env: { ...process.env, NO_COLOR: "1", CTXINJECT_STATE_DIR: `${root}/.state` } as Record<string, string>, stderr: "ignore" });
  const client = new Client({ name: "ctxinject-test", version: "0.0.0" });
  await client.connect(transport);
  return client;
}

const textOf = (result: { content?: unknown }): string => ((result.content as Array<{ type: string; text: string }>)[0]?.text ?? "");

test("the server lists its four tools, with input schemas", async () => {
  const client = await connect(materialize("monorepo"));
  const { tools } = await client.listTools();
  assert.equal(tools.map((t) => t.name).sort(), ["explain", "get_context", "list_rules", "read_rule"]);
  const get = tools.find((t) => t.name === "get_context")!;
  assert.ok((get.inputSchema as { properties: Record<string, unknown> }).properties.files);
  await client.close();
});

test("get_context gives the block build gives for the files and prompt, once per connection", async () => {
  const root = materialize("monorepo");
  const client = await connect(root);
  const first = await client.callTool({ name: "get_context", arguments: { files: ["packages/api/src/handlers/user.ts"], prompt: "fix the retry" } });
  assert.not.ok(first.isError);
  assert.match(textOf(first), "packages/api/.cursor/rules/handlers.mdc");
  const again = await client.callTool({ name: "get_context", arguments: { files: ["packages/api/src/handlers/user.ts"] } });
  assert.match(textOf(again), "Nothing new applies", "the same conversation is not given the same text twice");
  await client.close();
  const other = await connect(root);
  assert.match(textOf(await other.callTool({ name: "get_context", arguments: { files: ["packages/api/src/handlers/user.ts"] } })), "handlers.mdc", "a new connection is a new session");
  await other.close();
});

test("explain, list_rules and read_rule answer from the same reading", async () => {
  const client = await connect(materialize("monorepo"));
  const explained = JSON.parse(textOf(await client.callTool({ name: "explain", arguments: { files: ["packages/web/src/components/Button.tsx"] } }))) as { candidates: Array<{ id: string; status: string }> };
  assert.is(explained.candidates.find((c) => c.id === "packages/web/.cursor/rules/components.mdc")?.status, "included");
  const { rules } = JSON.parse(textOf(await client.callTool({ name: "list_rules", arguments: {} }))) as { rules: Array<{ id: string; kind: string; description?: string }> };
  assert.is(rules.find((r) => r.id === ".cursor/rules/migrations.mdc")?.kind, "agent-requested");
  assert.ok(rules.find((r) => r.id === ".cursor/rules/migrations.mdc")?.description);
  assert.match(textOf(await client.callTool({ name: "read_rule", arguments: { rule: ".cursor/rules/migrations.mdc" } })), "migration");
  await client.close();
});

test("bad input is a tool error naming the field, and the server goes on", async () => {
  const client = await connect(materialize("monorepo"));
  const bad = await client.callTool({ name: "get_context", arguments: { max_tokens: "many" } });
  assert.ok(bad.isError);
  assert.match(textOf(bad), "max_tokens");
  const unknown = await client.callTool({ name: "read_rule", arguments: { rule: "no/such/rule.md" } });
  assert.ok(unknown.isError);
  assert.match(textOf(unknown), "rule: no instruction file");
  const { tools } = await client.listTools();
  assert.is(tools.length, 4, "still serving");
  await client.close();
});

test("every instruction file is a resource, listed and readable as markdown", async () => {
  const client = await connect(materialize("monorepo"));
  const { resources } = await client.listResources();
  const uri = "ctxinject://rule/.cursor/rules/general.mdc";
  assert.ok(resources.some((r) => r.uri === uri && r.mimeType === "text/markdown"), resources.map((r) => r.uri).join(" "));
  const read = await client.readResource({ uri });
  assert.match((read.contents[0] as { text: string }).text, "Keep functions short");
  await client.close();
});

test.run();
