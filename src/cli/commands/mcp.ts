import { createMcpServer } from "../../integrations/mcp-server.js";
import { lazyRequire } from "../../io/lazy-node.js";
import type { CliContext } from "../context.js";

type Stdio = typeof import("@modelcontextprotocol/sdk/server/stdio.js");

/**
 * `ctxinject mcp`: a Model Context Protocol server on stdin/stdout until the client closes it. One session per
 * connection (the process), so a conversation is not given the same text twice.
 */
export async function runMcp(ctx: CliContext, flags: { root?: string }, version: string): Promise<number> {
  const session = `mcp-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const server = createMcpServer({ run: { cwd: ctx.cwd, env: ctx.env }, ...(flags.root !== undefined && { root: flags.root }), version, session });
  const { StdioServerTransport } = lazyRequire<Stdio>("@modelcontextprotocol/sdk/server/stdio.js");
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    // The client closing standard input ends the conversation.
    process.stdin.on("end", () => void server.close().then(resolve, resolve));
  });
  await server.connect(transport);
  await closed;
  return 0;
}
