import { test } from "uvu";
import * as assert from "uvu/assert";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema, ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BIN, cleanup, git, materialize } from "../helpers/cli.js";
import { tempFolders } from "../helpers/temp.js";

// The server as an MCP client sees it: the built bin spawned over a real stdio pipe, driven by the SDK's own client.

const { folder } = tempFolders(test);
test.after(cleanup);
// A failed assertion leaves its client open: the server it spawned would keep the suite's process alive.
const open: Client[] = [];
test.after.each(async () => {
  for (const client of open.splice(0)) await client.close().catch(() => undefined);
});

interface Connected {
  client: Client;
  /** Resolves when the server says its watch of the tree is ready (its CTXINJECT_DEBUG line). */
  watching: Promise<void>;
}

async function connectWith(root: string, roots?: string[], onRoots?: () => void): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp"],
    cwd: root,
    env: { ...process.env, NO_COLOR: "1", CTXINJECT_DEBUG: "1", CTXINJECT_STATE_DIR: `${root}/.state` } as Record<string, string>,
    stderr: "pipe",
  });
  let said = "";
  const watching = new Promise<void>((resolve) => {
    transport.stderr!.on("data", (chunk: Buffer) => {
      said += chunk.toString("utf8");
      if (said.includes("debug: watching ")) resolve();
    });
  });
  const client = new Client({ name: "ctxinject-test", version: "0.0.0" }, roots ? { capabilities: { roots: { listChanged: false } } } : {});
  if (roots)
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      onRoots?.();
      return { roots: roots.map((r) => ({ uri: pathToFileURL(r).href, name: "project" })) };
    });
  await client.connect(transport);
  open.push(client);
  return { client, watching };
}

async function connect(root: string): Promise<Client> {
  return (await connectWith(root)).client;
}

/** The next resources/list_changed notification; fails the test after `ms` without one (a deadline, not a wait). */
function nextListChanged(client: Client, ms: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no resources/list_changed notification within ${ms} ms`)), ms);
    client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

const textOf = (result: unknown): string => (result as { content: Array<{ type: string; text: string }> }).content[0]?.text ?? "";

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
  assert.match(
    textOf(await other.callTool({ name: "get_context", arguments: { files: ["packages/api/src/handlers/user.ts"] } })),
    "handlers.mdc",
    "a new connection is a new session",
  );
  await other.close();
});

test("explain, list_rules and read_rule answer from the same reading", async () => {
  const client = await connect(materialize("monorepo"));
  const explained = JSON.parse(textOf(await client.callTool({ name: "explain", arguments: { files: ["packages/web/src/components/Button.tsx"] } }))) as {
    candidates: Array<{ id: string; status: string }>;
  };
  assert.is(explained.candidates.find((c) => c.id === "packages/web/.cursor/rules/components.mdc")?.status, "included");
  const { rules } = JSON.parse(textOf(await client.callTool({ name: "list_rules", arguments: {} }))) as {
    rules: Array<{ id: string; kind: string; description?: string }>;
  };
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
  assert.ok(
    resources.some((r) => r.uri === uri && r.mimeType === "text/markdown"),
    resources.map((r) => r.uri).join(" "),
  );
  const read = await client.readResource({ uri });
  assert.match((read.contents[0] as { text: string }).text, "Keep functions short");
  await client.close();
});

test("a rules file created while the server runs: the client is told the resource list changed, and the new file is listed", async () => {
  const root = materialize("monorepo");
  const { client, watching } = await connectWith(root);
  await client.listResources(); // the server has read the tree and begun watching its folders
  await watching;
  const changed = nextListChanged(client, 5000);
  writeFileSync(join(root, ".cursor/rules/added-later.mdc"), "---\nalwaysApply: true\n---\nAdded while the server ran.\n");
  await changed; // a resources/list_changed notification arrived
  // The list is what build --all reads: the files git tracks (a new rule counts once added).
  git(root, "add", ".cursor/rules/added-later.mdc");
  const { resources } = await client.listResources();
  assert.ok(resources.some((r) => r.uri === "ctxinject://rule/.cursor/rules/added-later.mdc"));
  await client.close();
});

test("a rule written while the server is still starting its watch is reported once the watch is ready", async () => {
  // Outside git (a walk reads the tree) and with enough folders that chokidar's first scan takes a while: a file
  // written in a folder the scan has not reached is a file chokidar takes as already there, and never reports.
  const root = materialize("monorepo", { git: false });
  for (let i = 0; i < 1500; i++) mkdirSync(join(root, `services/s${i}/src`), { recursive: true });
  const client = await connect(root);
  const changed = nextListChanged(client, 10_000);
  await client.listResources(); // the watch begins with this reading
  mkdirSync(join(root, "services/s1499/.cursor/rules"), { recursive: true });
  writeFileSync(join(root, "services/s1499/.cursor/rules/late.mdc"), "---\nalwaysApply: true\n---\nWritten while the watch started.\n");
  await changed; // a resources/list_changed notification arrived
  const { resources } = await client.listResources();
  assert.ok(resources.some((r) => r.uri === "ctxinject://rule/services/s1499/.cursor/rules/late.mdc"));
  await client.close();
});

test("the client's roots are the project: started elsewhere, it reads the root the client names", async () => {
  const project = materialize("monorepo");
  const elsewhere = folder("mcp-cwd");
  // The server asks for the roots once connected. setImmediate: after the answer is on its way, so the ping below
  // follows it on the pipe; the ping's answer then means the server took the roots before the tool call is sent.
  let asked!: () => void;
  const rootsAsked = new Promise<void>((resolve) => (asked = resolve));
  const { client } = await connectWith(elsewhere, [project], () => setImmediate(asked));
  await rootsAsked;
  await client.ping();
  const { rules } = JSON.parse(textOf(await client.callTool({ name: "list_rules", arguments: {} }))) as { rules: Array<{ id: string }> };
  assert.ok(
    rules.some((r) => r.id === ".cursor/rules/general.mdc"),
    rules.map((r) => r.id).join(", "),
  );
  await client.close();
});

test.run();
