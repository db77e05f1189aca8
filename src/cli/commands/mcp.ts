import { fileURLToPath } from "node:url";
import { createMcpServer, everyRule as everyRuleOf } from "../../integrations/mcp-server.js";
import type { Config } from "../../core/config.js";
import type { Candidate } from "../../core/types.js";
import { contentHash } from "../../io/session/session-store.js";
import { watchTree } from "../../io/tree-watcher.js";
import { lazyRequire } from "../../io/lazy-node.js";
import { runOf, type CliContext } from "../context.js";

type Stdio = typeof import("@modelcontextprotocol/sdk/server/stdio.js");

/**
 * `ctxinject mcp`: a Model Context Protocol server on stdin/stdout until the client closes it. One session per
 * connection (the process), so a conversation is not given the same text twice.
 */
export async function runMcp(ctx: CliContext, flags: { root?: string }, version: string): Promise<number> {
  const session = `mcp-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  // Instruction files that change while the server runs: the client is told its resource list changed. The watch
  // is build --watch's, begun at the first reading of the root (which may come from the client's roots).
  let watcher: { root: string; close(): Promise<void> } | undefined;
  const listChanged = () => void server.server.sendResourceListChanged().catch(() => undefined);
  const follow = (root: string, config: Config, rules: Candidate[]) => {
    if (watcher?.root === root) return;
    void watcher?.close();
    const watch = watchTree(root, config, listChanged);
    const current = { root, close: watch.close };
    watcher = current;
    // A change in a folder chokidar's first scan had not reached yet is never reported: once the scan is done, the
    // tree is read again and the client told if it differs from the reading the watch began with.
    const before = listingOf(rules);
    void watch.ready.then(async () => {
      if (watcher !== current) return;
      // What a client (and the tests) can wait on instead of guessing how long chokidar's first scan takes.
      if (ctx.env.CTXINJECT_DEBUG !== undefined) ctx.stderr.write(`ctxinject: debug: watching ${root} for instruction files\n`);
      const now = await everyRuleOf(options).catch(() => null);
      if (now !== null && watcher === current && listingOf(now) !== before) listChanged();
    });
  };
  const options = { run: runOf(ctx), ...(flags.root !== undefined && { root: flags.root }), version, session, onRead: follow };
  const server = createMcpServer(options);
  // The client's roots, when it has them, are the project: the first file:// root.
  server.server.oninitialized = () => {
    if (!server.server.getClientCapabilities()?.roots) return void listAll();
    server.server
      .listRoots()
      .then(({ roots }) => {
        const first = roots.find((r) => r.uri.startsWith("file://"));
        if (first) (options as { root?: string }).root = fileURLToPath(first.uri);
      })
      .catch(() => undefined)
      .finally(listAll);
  };
  // One reading at the start, so that the watcher knows the folders before the client asks anything.
  const listAll = () => void readAll();
  const readAll = async () => {
    try {
      await everyRuleOf(options);
    } catch {
      // A broken tree is reported by the calls that need it.
    }
  };
  const { StdioServerTransport } = lazyRequire<Stdio>("@modelcontextprotocol/sdk/server/stdio.js");
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    // The client closing standard input ends the conversation.
    process.stdin.on("end", () => void server.close().then(resolve, resolve));
  });
  await server.connect(transport);
  await closed;
  await watcher?.close();
  return 0;
}

/** What the resource list shows, as one value: each file's path and the hash of its text. */
const listingOf = (rules: Candidate[]) => contentHash(rules.map((r) => `${r.path}\0${contentHash(r.content)}`).join("\n"));
