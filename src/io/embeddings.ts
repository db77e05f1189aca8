/**
 * Opt-in semantic scoring (docs/relevance.md, "Embeddings"): the prompt and the description-only rules embedded by
 * the user's own server (Ollama's /api/embed or an OpenAI-compatible /v1/embeddings), the rules' vectors cached in
 * the state folder. Nothing here loads unless `relevance.embeddings` (the user's own config) or
 * CTXINJECT_EMBEDDINGS_PROVIDER/MODEL (the environment) name a server: node:http/https are required on the first
 * request. Every failure leaves the word-based ranking standing, with one warning whose text does not change
 * between prompts (a hook's session shows a warning once). Only the prompt's request is held to `timeoutMs`; the
 * rules' request runs on (RULES_TIMEOUT_MS) and fills the cache for later prompts (semanticVectors).
 */
import { readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import type { EmbeddingsSetting } from "../core/config-table.js";
import { EMBEDDING_PROVIDERS } from "../core/config-table.js";
import type { Config } from "../core/config.js";
import { fingerprint } from "../core/fingerprint.js";
import type { RelevanceDoc } from "../core/prompt/relevance.js";
import { embeddingText, type SemanticInput } from "../core/prompt/semantic.js";
import type { Warning } from "../core/types.js";
import { writeFileAtomically } from "./fs/atomic-write.js";
import { lazyRequire } from "./lazy-node.js";
import { under } from "./fs/paths.js";
import { makePrivateDir, stateDir } from "./session/session-store.js";

type Http = typeof import("node:http");

/** A hard limit: the hook answers within its deadline whatever the server does. */
export const DEFAULT_EMBEDDINGS_TIMEOUT_MS = 300;
/**
 * Below this cosine similarity a rule the words missed stays out of the likely tier. A model's own scale: 0.5 suits
 * normalised sentence-embedding models (unrelated texts score around 0.2-0.45 on nomic-embed-text); set
 * `minSimilarity` for another.
 */
export const DEFAULT_MIN_SIMILARITY = 0.5;
const DEFAULT_BASE_URL = { ollama: "http://127.0.0.1:11434", openai: "https://api.openai.com" } as const;
/** The longest answer read: a few hundred rules' vectors of 1-3k numbers; a server answering more is not listened to. */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
/**
 * One file per rule vector (named by the hash of model, prefix and text): a prompt reads only its rules' vectors, a
 * few kilobytes each, where one file of every project's would be parsed whole on every prompt.
 */
const CACHE_DIR = "embeddings";

export interface EmbeddingsServer {
  provider: "ollama" | "openai";
  model: string;
  baseUrl: string;
  timeoutMs: number;
  queryPrefix: string;
  documentPrefix: string;
  minSimilarity: number;
  /** CTXINJECT_EMBEDDINGS_API_KEY, sent as a bearer token; never read from a config file. */
  apiKey?: string;
}

/**
 * The server to ask, or null when none is configured. The environment (CTXINJECT_EMBEDDINGS_PROVIDER and _MODEL,
 * with _BASE_URL, _TIMEOUT_MS) replaces the user's config as a whole; CTXINJECT_EMBEDDINGS=off turns either off.
 * `config.relevance.embeddings` only ever holds the user's own value: a repository's is dropped with a warning
 * (core/config-layers.ts).
 */
export function embeddingsServer(config: Config, env: Record<string, string | undefined>): { server: EmbeddingsServer | null; warnings: Warning[] } {
  if (env.CTXINJECT_EMBEDDINGS === "off" || env.CTXINJECT_EMBEDDINGS === "0") return { server: null, warnings: [] };
  const warnings: Warning[] = [];
  let setting: EmbeddingsSetting | undefined = config.relevance?.embeddings;
  const provider = env.CTXINJECT_EMBEDDINGS_PROVIDER;
  if (provider !== undefined && provider !== "") {
    const model = env.CTXINJECT_EMBEDDINGS_MODEL;
    const timeout = env.CTXINJECT_EMBEDDINGS_TIMEOUT_MS;
    const timeoutMs = timeout === undefined || timeout === "" ? undefined : Number(timeout);
    const baseUrl = env.CTXINJECT_EMBEDDINGS_BASE_URL;
    const problem = !(EMBEDDING_PROVIDERS as readonly string[]).includes(provider)
      ? `CTXINJECT_EMBEDDINGS_PROVIDER must be one of ${EMBEDDING_PROVIDERS.join(", ")}`
      : model === undefined || model === ""
        ? "CTXINJECT_EMBEDDINGS_MODEL must name the model"
        : timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs >= 1 && timeoutMs <= 10_000)
          ? "CTXINJECT_EMBEDDINGS_TIMEOUT_MS must be a whole number of milliseconds from 1 to 10000"
          : baseUrl !== undefined && baseUrl !== "" && !/^https?:\/\/[^\s/]+/i.test(baseUrl)
            ? "CTXINJECT_EMBEDDINGS_BASE_URL must be an http:// or https:// address"
            : null;
    if (problem !== null) return { server: null, warnings: [{ message: `${problem}; embeddings are off for this run` }] };
    setting = {
      provider: provider as EmbeddingsSetting["provider"],
      model: model!,
      ...(baseUrl !== undefined && baseUrl !== "" && { baseUrl }),
      ...(timeoutMs !== undefined && { timeoutMs }),
      ...(env.CTXINJECT_EMBEDDINGS_QUERY_PREFIX !== undefined && { queryPrefix: env.CTXINJECT_EMBEDDINGS_QUERY_PREFIX }),
      ...(env.CTXINJECT_EMBEDDINGS_DOCUMENT_PREFIX !== undefined && { documentPrefix: env.CTXINJECT_EMBEDDINGS_DOCUMENT_PREFIX }),
    };
  }
  if (setting === undefined) return { server: null, warnings };
  const apiKey = env.CTXINJECT_EMBEDDINGS_API_KEY;
  return {
    server: {
      provider: setting.provider,
      model: setting.model,
      baseUrl: (setting.baseUrl ?? DEFAULT_BASE_URL[setting.provider]).replace(/\/+$/, ""),
      timeoutMs: setting.timeoutMs ?? DEFAULT_EMBEDDINGS_TIMEOUT_MS,
      queryPrefix: setting.queryPrefix ?? "",
      documentPrefix: setting.documentPrefix ?? "",
      minSimilarity: setting.minSimilarity ?? DEFAULT_MIN_SIMILARITY,
      ...(apiKey !== undefined && apiKey !== "" && { apiKey }),
    },
    warnings,
  };
}

/** What the pipeline gets: the vectors as plain values for the core, or the warning that says why there are none. */
export interface SemanticResult {
  semantic?: SemanticInput;
  warnings: Warning[];
}

/**
 * How long the rules' request may take, apart from the prompt's deadline. A CPU-bound model embeds a first prompt's
 * 30 rules in 6-8 s (Universal Sentence Encoder Lite, measured): under the prompt's 300 ms it would never fill the
 * cache. A minute covers a slow model on a few hundred rules; a server that never answers is let go at last.
 */
export const RULES_TIMEOUT_MS = 60_000;

/**
 * The rules' requests still in flight in this process, by cache file: in the warm hook server a prompt arriving
 * while an earlier prompt's request still runs waits on that one instead of queueing the same work on a slow model.
 */
const inFlight = new Map<string, Promise<RuleVector>>();

/** A rule's vector, or why the request for it failed. */
type RuleVector = number[] | { failed: string };

/** Whether the run waits for the rules' vectors (up to RULES_TIMEOUT_MS) or gives them only the prompt's deadline. */
export interface VectorsOptions {
  /** `explain`: a command the user waits on anyway, so one run fills the cache for every prompt after it. */
  waitForRules?: boolean;
}

/**
 * The prompt's vector (one request per prompt) and the rules' (from the cache; those missing in one more request,
 * sent at the same time). Only the prompt's request is bound by the server's `timeoutMs`: nothing waits longer than
 * that for the answer. The rules' request has RULES_TIMEOUT_MS of its own and its vectors are cached whenever they
 * arrive: in the warm hook server after the answer was given, for the next prompt; a process started per call does
 * not wait for it at exit (its socket and timer are unref'd), unless `waitForRules` (explain) waits for it. Rules
 * whose vectors are not there by the deadline are ranked by words only (the core takes vectors for some rules).
 * Cached by hash of (model, document prefix, text): a model or prefix change misses the cache and embeds again.
 */
export async function semanticVectors(
  server: EmbeddingsServer,
  prompt: string,
  docs: RelevanceDoc[],
  env: Record<string, string | undefined>,
  options: VectorsOptions = {},
): Promise<SemanticResult> {
  const texts = [...new Set(docs.map(embeddingText))];
  const keyOf = (text: string) => fingerprint(`${server.model}\0${server.documentPrefix}\0${text}`);
  const dir = under(stateDir(env), CACHE_DIR);
  const vectors = new Map<string, number[]>();
  const waiting = new Map<string, Promise<RuleVector>>();
  const missing: string[] = [];
  const now = Date.now();
  for (const t of texts) {
    const vector = readCached(dir, keyOf(t), now);
    const running = inFlight.get(under(dir, keyOf(t)));
    if (vector) vectors.set(t, vector);
    else if (running) waiting.set(t, running);
    else missing.push(t);
  }
  const deadline = new AbortController();
  const passed = new Promise<void>((resolve) => deadline.signal.addEventListener("abort", () => resolve()));
  const timer = setTimeout(() => deadline.abort(), server.timeoutMs);
  // The prompt's request first: a server that embeds one request at a time answers it before the rules.
  const asked = embed(server, [server.queryPrefix + prompt], deadline.signal);
  if (missing.length > 0)
    for (const [t, vector] of requestRules(
      server,
      dir,
      missing.map((t) => [t, keyOf(t)]),
      options.waitForRules === true,
    ))
      waiting.set(t, vector);
  let rulesFailed: string | undefined;
  const rules = Promise.all(
    [...waiting].map(async ([t, running]) => {
      const vector = await running;
      if (Array.isArray(vector)) vectors.set(t, vector);
      else rulesFailed = vector.failed;
    }),
  );
  let settled = waiting.size === 0;
  void rules.then(() => (settled = true));
  let query: number[] | undefined;
  let failure: string | undefined;
  try {
    query = (await asked)[0]!;
  } catch (error) {
    failure = deadline.signal.aborted ? `did not answer within ${server.timeoutMs} ms` : (error as Error).message;
  }
  // What arrives before the deadline is used now; explain waits for the rest (rules never rejects).
  await (options.waitForRules === true ? rules : Promise.race([rules, passed]));
  clearTimeout(timer);
  const late = settled ? 0 : texts.length - vectors.size;
  // The same text on every prompt of a session while the rules are still being embedded (a session shows it once).
  const advice = `\`ctxinject explain --prompt "..."\` embeds them once without the deadline`;
  const shown = `relevance.embeddings: ${shownUrl(server)}`;
  if (query === undefined) {
    const why = late > 0 ? `${failure} (${late} rules not embedded yet: ${advice})` : failure;
    return { warnings: [{ message: `${shown} ${why}; the word-based ranking stands` }] };
  }
  const warnings: Warning[] =
    late > 0
      ? [{ message: `${shown} did not embed ${late} rules within ${server.timeoutMs} ms (${advice}); those are ranked by words only` }]
      : rulesFailed !== undefined
        ? [{ message: `${shown} ${rulesFailed} for the rules; those not cached are ranked by words only` }]
        : [];
  // No rule has a vector (the rules' request failed): nothing to fuse, the words alone rank them.
  if (vectors.size === 0) return { warnings };
  return { semantic: { query, vectors, minSimilarity: server.minSimilarity }, warnings };
}

/**
 * One request for the rules' vectors, cached as they arrive; each text's vector, or why the request failed or outran
 * RULES_TIMEOUT_MS (the next prompt asks again). Never rejects. `held`: the process waits for it (explain).
 */
function requestRules(server: EmbeddingsServer, dir: string, missing: Array<[text: string, key: string]>, held: boolean): Array<[string, Promise<RuleVector>]> {
  const cap = new AbortController();
  const timer = setTimeout(() => cap.abort(), RULES_TIMEOUT_MS);
  if (!held) timer.unref();
  const answer = embed(
    server,
    missing.map(([t]) => server.documentPrefix + t),
    cap.signal,
    !held,
  ).then(
    (fresh) => {
      writeCached(
        dir,
        missing.map(([, key], i) => [key, fresh[i]!]),
      );
      return fresh;
    },
    (error: Error) => ({ failed: cap.signal.aborted ? `did not answer within ${RULES_TIMEOUT_MS / 1000} s` : error.message }),
  );
  const done = answer.finally(() => {
    clearTimeout(timer);
    for (const [, key] of missing) inFlight.delete(under(dir, key));
  });
  return missing.map(([text, key], i) => {
    const vector = done.then((fresh): RuleVector => (Array.isArray(fresh) ? fresh[i]! : fresh));
    inFlight.set(under(dir, key), vector);
    return [text, vector];
  });
}

/** The endpoint as a warning shows it: never a user:password part of the address. */
const shownUrl = (server: EmbeddingsServer) => endpoint(server).replace(/\/\/[^/@]*@/, "//");
const endpoint = (server: EmbeddingsServer) => `${server.baseUrl}${server.provider === "ollama" ? "/api/embed" : "/v1/embeddings"}`;

/** One POST of `{model, input}`; the vectors in the order of `input`, or an Error whose message says what went wrong. */
async function embed(server: EmbeddingsServer, input: string[], signal: AbortSignal, unref = false): Promise<number[][]> {
  const body = await post(endpoint(server), JSON.stringify({ model: server.model, input }), server.apiKey, signal, unref);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new Error("answered something other than JSON");
  }
  const vectors = server.provider === "ollama" ? ollamaVectors(parsed) : openaiVectors(parsed);
  if (vectors === null || vectors.length !== input.length) throw new Error(`answered something other than ${input.length} embedding(s)`);
  const size = vectors[0]!.length;
  if (size === 0 || vectors.some((v) => v.length !== size || v.some((n) => typeof n !== "number" || !Number.isFinite(n)))) {
    throw new Error("answered vectors that are empty, uneven or not numbers");
  }
  return vectors;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const numberLists = (v: unknown): v is number[][] => Array.isArray(v) && v.every((x) => Array.isArray(x));

function ollamaVectors(answer: unknown): number[][] | null {
  return isObject(answer) && numberLists(answer.embeddings) ? answer.embeddings : null;
}

function openaiVectors(answer: unknown): number[][] | null {
  if (!isObject(answer) || !Array.isArray(answer.data)) return null;
  // `index` says which input a vector is for; a server may answer out of order.
  const items = answer.data.map((d, i) =>
    isObject(d) && Array.isArray(d.embedding) ? { index: typeof d.index === "number" ? d.index : i, embedding: d.embedding as number[] } : null,
  );
  if (items.some((d) => d === null)) return null;
  return (items as Array<{ index: number; embedding: number[] }>).sort((a, b) => a.index - b.index).map((d) => d.embedding);
}

/** `unref`: the request does not keep the process alive (a per-call process ends without waiting for it). */
function post(url: string, body: string, apiKey: string | undefined, signal: AbortSignal, unref: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const http = lazyRequire<Http>(url.startsWith("https:") ? "node:https" : "node:http");
    const headers: Record<string, string> = { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) };
    if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;
    const request = http.request(url, { method: "POST", headers, signal }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) request.destroy(new Error(`answered more than ${MAX_ANSWER_BYTES / 1024 / 1024} MB`));
        else chunks.push(chunk);
      });
      response.on("end", () => {
        if (response.statusCode !== 200) reject(new Error(`answered HTTP ${response.statusCode}`));
        else resolve(Buffer.concat(chunks).toString("utf8"));
      });
      response.on("error", reject);
    });
    // ECONNREFUSED and the like: the code says it best.
    if (unref) request.on("socket", (socket) => socket.unref());
    request.on("error", (error: NodeJS.ErrnoException) =>
      reject(new Error(error.code !== undefined && error.code !== "ABORT_ERR" ? `cannot be reached (${error.code})` : error.message)),
    );
    request.end(body);
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * A vector no prompt has used for this long is removed: its rule was edited or deleted, or the model changed (each
 * keeps a file per rule text and model, so without collection the folder only grows). One still in use costs at
 * most a request to embed it again.
 */
const UNUSED_MAX_MS = 30 * DAY_MS;
/** A vector in use has its file's time set when it is older than this: once a day at most, not on every prompt. */
const TOUCH_AFTER_MS = DAY_MS;
/** Unused vectors are looked for at most this often, after a write (a marker's time says when it last ran). */
const COLLECT_EVERY_MS = DAY_MS;
/** What a writer that died left (atomic-write.ts's temp name), removed after an hour. */
const TEMP_MAX_MS = 60 * 60 * 1000;

/** A rule's cached vector, or undefined (none yet, or not a list of numbers: embedded again). */
function readCached(dir: string, key: string, now: number): number[] | undefined {
  const file = under(dir, `${key}.json`);
  const stat = statSync(file, { throwIfNoEntry: false });
  if (stat === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (!(Array.isArray(parsed) && parsed.length > 0 && parsed.every((n) => typeof n === "number" && Number.isFinite(n)))) return undefined;
    if (now - stat.mtimeMs > TOUCH_AFTER_MS) utimesSync(file, now / 1000, now / 1000);
    return parsed;
  } catch {
    return undefined;
  }
}

function writeCached(dir: string, entries: Array<[string, number[]]>): void {
  try {
    makePrivateDir(dir);
    for (const [key, vector] of entries) writeFileAtomically(under(dir, `${key}.json`), JSON.stringify(vector));
    collectUnused(dir, Date.now());
  } catch {
    // A state folder that cannot be written costs the next prompt a request, nothing more.
  }
}

/**
 * Removes the vectors unused for UNUSED_MAX_MS and dead writers' temp files, at most once per COLLECT_EVERY_MS. The
 * marker sits beside the folder, which holds vectors only.
 */
function collectUnused(dir: string, now: number): void {
  const marker = `${dir}.last-gc`;
  if (now - (statSync(marker, { throwIfNoEntry: false })?.mtimeMs ?? 0) < COLLECT_EVERY_MS) return;
  writeFileSync(marker, "", { mode: 0o600 });
  utimesSync(marker, now / 1000, now / 1000);
  for (const name of readdirSync(dir)) {
    const maxAge = name.endsWith(".json") ? UNUSED_MAX_MS : name.endsWith(".tmp") ? TEMP_MAX_MS : undefined;
    if (maxAge === undefined) continue;
    const file = under(dir, name);
    const stat = statSync(file, { throwIfNoEntry: false });
    if (stat?.isFile() === true && now - stat.mtimeMs > maxAge) rmSync(file, { force: true });
  }
}

/**
 * The pipeline's step: nothing (and nothing loaded) without a configured server, a prompt or a rule to score;
 * otherwise the vectors, or a warning. `waitForRules` (explain's run) waits for the rules' vectors (see
 * semanticVectors); every other run answers within the server's timeout. The run's purpose stays the pipeline's: this
 * module only hears what it changes here, so it imports nothing from io/pipeline.ts.
 */
export async function promptEmbeddings(
  config: Config,
  env: Record<string, string | undefined>,
  prompt: string | undefined,
  docs: RelevanceDoc[],
  waitForRules: boolean,
): Promise<SemanticResult> {
  if (prompt === undefined || docs.length === 0) return { warnings: [] };
  const { server, warnings } = embeddingsServer(config, env);
  if (server === null) return { warnings };
  return semanticVectors(server, prompt, docs, env, { waitForRules });
}
