/**
 * `ctxinject mcp`: context on demand for agents that cannot take a hook. A Model Context Protocol server on stdio,
 * built on the official TypeScript SDK, which is loaded here only (every other command starts without it):
 * - tools: get_context (the block `build` prints, with its index), explain (every candidate with its status and
 *   reason), list_rules (every instruction file with kind, globs, description), read_rule (one in full);
 * - resources: one per instruction file, `ctxinject://rule/<path>`, text/markdown;
 * - one session per connection: what a get_context gave is not given again in the same conversation.
 */
import type { McpServer as McpServerType } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { Config } from "../core/config.js";
import { safeMessage } from "../core/redact.js";
import { gateName, gateText } from "../core/text-gate.js";
import { renderExplainJson } from "../core/render/explain.js";
import { FORMATS, type Candidate, type Format } from "../core/types.js";
import { lazyRequire } from "../io/lazy-node.js";
import { runPipeline, type RunEnvironment } from "../io/pipeline.js";
import type { Delivery } from "../io/session/session-claim.js";

type Sdk = typeof import("@modelcontextprotocol/sdk/server/mcp.js");
type Zod = typeof import("zod");

export interface McpOptions {
  run: RunEnvironment;
  /** --root, else the usual root detection from run.cwd. */
  root?: string;
  version: string;
  /** This connection's session: what it was given is not given again. */
  session: string;
  /** Told the root, its config and what was read each time every file is read (the watcher follows the root). */
  onRead?: (root: string, config: Config, rules: Candidate[]) => void;
}

/**
 * What a tool or resource hands the client goes to its model: without hidden characters, credentials redacted.
 * Selections are clean already (unless the user's config says otherwise: then only a credential's shape is caught
 * here); ids, paths and descriptions are the repository's and are checked again here.
 */
const clean = (value: string): string => gateText(value).text;
const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: clean(value) }] });
const failure = (message: string): CallToolResult => ({ content: [{ type: "text", text: safeMessage(message) }], isError: true });

/** Every instruction file, as `build --all` sees it (kinds, globs, descriptions, full text). */
export async function everyRule(options: McpOptions): Promise<Candidate[]> {
  const gathered = await runPipeline(options.run, { purpose: "mcp", all: true, until: "select", ...(options.root !== undefined && { root: options.root }) });
  const rules = gathered.selection.candidates.filter((c) => c.path !== null);
  options.onRead?.(gathered.root, gathered.config, rules);
  return rules;
}

export function createMcpServer(options: McpOptions): McpServerType {
  const { McpServer, ResourceTemplate } = lazyRequire<Sdk>("@modelcontextprotocol/sdk/server/mcp.js");
  const { z } = lazyRequire<Zod>("zod");
  const server = new McpServer({ name: "ctxinject", version: options.version }, { capabilities: { resources: { listChanged: true } } });
  // get_context's answers on their way, by request: each is finished once its response is sent, aborted if it never is.
  const held = new Map<RequestId, Delivery>();
  const settle = async (id: RequestId, sent: boolean) => {
    const delivery = held.get(id);
    if (delivery === undefined) return;
    held.delete(id);
    await (sent ? delivery.finish() : delivery.abort());
  };
  const connect = server.connect.bind(server);
  server.connect = async (transport: Transport) => {
    const send = transport.send.bind(transport);
    transport.send = async (message, sendOptions) => {
      const id = "id" in message && ("result" in message || "error" in message) ? message.id : undefined;
      try {
        await send(message, sendOptions);
      } catch (error) {
        if (id !== undefined) await settle(id, false);
        throw error;
      }
      if (id !== undefined) await settle(id, true);
    };
    return connect(transport);
  };
  // The root may come later, from the client's roots: every call reads it as it is then.
  const place = () => (options.root !== undefined ? { root: options.root } : {});

  server.registerTool(
    "get_context",
    {
      title: "Project instructions for files and a prompt",
      description:
        "The instructions of every agent in this repository that apply to the given files and prompt (Cursor, Claude, Copilot rules, AGENTS.md…), merged, deduplicated and fitted to max_tokens, with an index of the rules left out. What one call returned is not repeated by later calls of this connection.",
      inputSchema: {
        files: z.array(z.string().min(1)).optional().describe("paths of the files being worked on, relative to the project root or absolute"),
        prompt: z.string().optional().describe("the user's request, for keyword modes, @rule mentions, paths it names and relevance"),
        max_tokens: z.number().int().positive().optional().describe("token budget for the block"),
        format: z.enum(FORMATS).optional().describe("markdown (default), xml, compact or json"),
      },
    },
    async ({ files, prompt, max_tokens, format }, extra) => {
      const selected = await runPipeline(options.run, {
        purpose: "mcp",
        ...place(),
        ...(files && { files }),
        ...(prompt !== undefined && { prompt }),
        ...(max_tokens !== undefined && { maxTokens: max_tokens }),
        ...(format !== undefined && { format: format as Format }),
        session: options.session,
        limits: () => ({ once: true }),
      });
      // What it gives stays given once the answer is sent (the transport's send, below), and not when it is not.
      held.set(extra.requestId, selected);
      extra.signal.addEventListener("abort", () => void settle(extra.requestId, false), { once: true });
      return text(
        selected.doc.entries.length === 0 && selected.format !== "json"
          ? "Nothing new applies: every instruction for these files was given earlier in this conversation."
          : selected.output,
      );
    },
  );

  server.registerTool(
    "explain",
    {
      title: "Why each instruction file is or is not included",
      description: "Every candidate for the files and prompt, included or not, with its source, kind, status and reason (JSON).",
      inputSchema: {
        files: z.array(z.string().min(1)).optional().describe("paths of the files being worked on"),
        prompt: z.string().optional().describe("the user's request"),
      },
    },
    async ({ files, prompt }) => {
      const selected = await runPipeline(options.run, { purpose: "explain", ...place(), ...(files && { files }), ...(prompt !== undefined && { prompt }) });
      return text(renderExplainJson(selected.candidates));
    },
  );

  server.registerTool(
    "list_rules",
    {
      title: "Every instruction file of the repository",
      description: "Each instruction file with its source, kind (always, auto, agent-requested, manual), globs, description and path: read one with read_rule.",
      inputSchema: {},
    },
    async () => {
      // Names pass the gate before JSON escapes a control in them out of `clean`'s sight.
      const rules = (await everyRule(options)).map((c) => ({
        id: gateName(c.id),
        source: c.source,
        kind: c.kind,
        path: c.path === null ? null : gateName(c.path),
        ...(c.globs.length > 0 && { globs: c.globs }),
        ...(c.description !== null && { description: c.description }),
        tokens: c.tokens,
      }));
      return text(`${JSON.stringify({ rules }, null, 2)}\n`);
    },
  );

  server.registerTool(
    "read_rule",
    {
      title: "One instruction file in full",
      description:
        "The full text of a rule or agent file named by its id or path (as list_rules and the index give them), with credentials and hidden characters removed as in every output.",
      inputSchema: { rule: z.string().min(1).describe("an id or path from list_rules or the index of a get_context block") },
    },
    async ({ rule }) => {
      const name = rule.replace(/^\.\//, "");
      // A name as list_rules showed it (gated) or as it is.
      const found = (await everyRule(options)).find(
        (c) => c.id === name || c.path === name || gateName(c.id) === name || (c.path !== null && gateName(c.path) === name),
      );
      return found ? text(found.content) : failure(`rule: no instruction file has the id or path ${JSON.stringify(rule)} (list_rules names them)`);
    },
  );

  server.registerResource(
    "rule",
    new ResourceTemplate("ctxinject://rule/{+path}", {
      list: async () => ({
        resources: (await everyRule(options)).map((c) => ({
          uri: `ctxinject://rule/${gateName(c.path!)}`,
          name: gateName(c.path!),
          mimeType: "text/markdown",
          ...(c.description !== null && { description: c.description }),
        })),
      }),
    }),
    { mimeType: "text/markdown", description: "An instruction file of the repository (rules, AGENTS.md, README…), as ctxinject reads it" },
    async (uri, variables) => {
      const path = String(variables.path ?? "");
      const found = (await everyRule(options)).find((c) => c.path === path || gateName(c.path!) === path);
      if (!found) throw new Error(safeMessage(`no instruction file at ${path}`));
      return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: clean(found.content) }] };
    },
  );
  return server;
}
