import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * A fake embedding server of our own on 127.0.0.1: deterministic vectors from a small concept table (one dimension
 * per concept, counting the text's words of that concept, and one constant dimension so no vector is zero). It is
 * NOT a model: words outside the table mean nothing to it. Speaks Ollama's POST /api/embed and the OpenAI-compatible
 * POST /v1/embeddings, and records every request.
 */
export const CONCEPTS: Record<string, string[]> = {
  realtime: [
    "websocket",
    "websockets",
    "socket",
    "sockets",
    "presence",
    "broadcast",
    "broadcasts",
    "channel",
    "channels",
    "live",
    "cursor",
    "cursors",
    "reconnect",
    "reconnects",
    "wakes",
    "sleep",
    "realtime",
    "typing",
    "indicator",
    "indicators",
  ],
  billing: [
    "stripe",
    "invoice",
    "invoices",
    "refund",
    "refunds",
    "billing",
    "charge",
    "charged",
    "charges",
    "customers",
    "payment",
    "payments",
    "twice",
    "money",
    "subscription",
  ],
  database: ["sql", "schema", "migration", "migrations", "database", "column", "columns", "table", "tables", "postgres", "index", "rollback", "nullable"],
};

/**
 * What the server does with a request: answer, never answer (slow), answer something that is not embeddings, or
 * answer the prompt at once and the rules (inputs starting with DOCUMENT_PREFIX) after `documentDelayMs`, as a
 * CPU-bound model embeds a first prompt's rules.
 */
export type FakeMode = "ok" | "slow" | "garbage" | "slow-documents";

/** The document prefix a test configures (`documentPrefix`) so that this server tells the rules' request apart. */
export const DOCUMENT_PREFIX = "passage: ";

export interface FakeEmbeddings {
  url: string;
  /** Every request's body as received: `{ path, model, input }`. */
  requests: Array<{ path: string; model: string; input: string[] }>;
  mode: FakeMode;
  /** In "slow-documents" mode, how long the rules' request waits for its answer. */
  documentDelayMs: number;
  close(): Promise<void>;
}

export function conceptVector(text: string, concepts: Record<string, string[]> = CONCEPTS): number[] {
  const words = text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
  return [...Object.values(concepts).map((list) => words.filter((w) => list.includes(w)).length), 0.1];
}

export async function startFakeEmbeddings(concepts: Record<string, string[]> = CONCEPTS): Promise<FakeEmbeddings> {
  const sockets = new Set<Socket>();
  const held: ServerResponse[] = [];
  const fake: FakeEmbeddings = { url: "", requests: [], mode: "ok", documentDelayMs: 0, close: async () => undefined };
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      const parsed = JSON.parse(body) as { model: string; input: string | string[] };
      const input = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
      fake.requests.push({ path: req.url ?? "", model: parsed.model, input });
      if (fake.mode === "slow") return void held.push(res);
      if (fake.mode === "slow-documents" && input.every((t) => t.startsWith(DOCUMENT_PREFIX))) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          answer(req, res, input, parsed.model);
        }, fake.documentDelayMs);
        return void timers.add(timer);
      }
      answer(req, res, input, parsed.model);
    });
  });
  function answer(req: IncomingMessage, res: ServerResponse, input: string[], model: string): void {
    if (res.destroyed) return;
    res.setHeader("content-type", "application/json");
    if (fake.mode === "garbage") return void res.end(JSON.stringify({ embeddings: "not vectors", data: 42 }));
    const vectors = input.map((t) => conceptVector(t, concepts));
    if (req.url === "/api/embed") res.end(JSON.stringify({ model, embeddings: vectors }));
    else if (req.url === "/v1/embeddings")
      res.end(JSON.stringify({ object: "list", data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })) }));
    else {
      res.statusCode = 404;
      res.end("{}");
    }
  }
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return fake;
}

/** An address where nothing listens: a server started and closed (its port free again). */
export async function closedAddress(): Promise<string> {
  const fake = await startFakeEmbeddings();
  await fake.close();
  return fake.url;
}
