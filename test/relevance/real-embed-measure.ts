/**
 * What a real embedding model earns on its own, and what it costs a prompt, against the server
 * CTXINJECT_EMBEDDINGS_* name (test/relevance/real-embed-server.ts says how to start one). Dev-only, not in npm test.
 *   node --import tsx test/relevance/real-embed-measure.ts
 * Per split: where the model alone ranks each relevant rule among the rules scored (hit@1, hit@4: would the
 * similarity by itself have put it in a four-slot likely tier), the mean similarity of relevant rules and of the
 * best stranger (a model's scale: what minSimilarity has to sit between), and of the relevant rules the words left
 * out of both tiers, how many the model alone ranks in its top four (the most embeddings could add to reach); then
 * the relevant rules reached (injected or likely) by words alone and with the embeddings (exact counts, at the
 * server's minSimilarity or --min-similarity=), with those the fusion gained and lost. Then the time the pipeline's step
 * (io/embeddings.ts semanticVectors) adds to a prompt: once with an empty cache (every rule embedded) and on every
 * prompt after it (the rules' vectors cached: one query request), median, 90th percentile and worst.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stemmer } from "stemmer";
import { defaultConfig } from "../../src/core/config.js";
import { cosine, embeddingText } from "../../src/core/prompt/semantic.js";
import { DEFAULT_MIN_RELEVANCE, selectContext } from "../../src/core/select.js";
import { ruleName } from "../../src/core/sources/rules.js";
import { embeddingsServer, semanticVectors } from "../../src/io/embeddings.js";
import { relevanceFixture } from "./fixture.js";

// Every rule folder and skill of the fixture, found as a build finds them, and every labelled prompt.
const { files, prompts } = await relevanceFixture();
const server = embeddingsServer(defaultConfig(), process.env).server;
if (server === null) throw new Error("set CTXINJECT_EMBEDDINGS_PROVIDER, _MODEL and _BASE_URL to the server to measure");
// The hook's own timeout would cut a slow model short; here every answer is waited for and timed.
server.timeoutMs = 60_000;
const nameOf = (id: string) => (id.endsWith("/SKILL.md") ? id.split("/").at(-2)! : ruleName(id));
const state = mkdtempSync(join(tmpdir(), "ctxinject-real-embed-"));
const env = { CTXINJECT_STATE_DIR: state };

interface Row {
  split: string;
  ranks: number[];
  relevantSim: number[];
  strangerSim: number[];
  /** Ranks by similarity of the relevant rules the words neither injected nor listed as likely. */
  missedRanks: number[];
  relevant: number;
  reachedWords: number;
  reachedBoth: number;
  gained: number;
  lost: number;
}
const minSimilarityArg = process.argv.find((a) => a.startsWith("--min-similarity="));
if (minSimilarityArg) server.minSimilarity = Number(minSimilarityArg.split("=")[1]);
const rows: Row[] = [];
const warmMs: number[] = [];
let coldMs = 0;
console.log(`embeddings: ${server.provider} ${server.model} at ${server.baseUrl}; ${files.length} rules and skills, ${prompts.length} prompts`);
for (const [n, p] of prompts.entries()) {
  const first = selectContext({ files, targets: [], prompt: p.prompt, stem: stemmer, minRelevance: DEFAULT_MIN_RELEVANCE, config: defaultConfig() });
  const docs = first.scored ?? [];
  if (docs.length === 0) continue;
  const started = performance.now();
  const result = await semanticVectors(server, p.prompt, docs, env, { waitForRules: true });
  const ms = performance.now() - started;
  if (n === 0) coldMs = ms;
  else warmMs.push(ms);
  if (!result.semantic) throw new Error(result.warnings.map((w) => w.message).join("; "));
  const { query, vectors } = result.semantic;
  const sims = docs.map((d) => ({ name: nameOf(d.id), sim: cosine(query, vectors.get(embeddingText(d)) ?? []) }));
  sims.sort((a, b) => b.sim - a.sim);
  const reachedBy = (selection: typeof first) =>
    new Set([
      ...selection.entries.filter((e) => e.kind === "agent-requested").map((e) => nameOf(e.id)),
      ...selection.omitted.filter((o) => o.tier === "likely").map((o) => nameOf(o.id)),
    ]);
  const reached = reachedBy(first);
  const fused = reachedBy(
    selectContext({
      files,
      targets: [],
      prompt: p.prompt,
      stem: stemmer,
      minRelevance: DEFAULT_MIN_RELEVANCE,
      config: defaultConfig(),
      semantic: result.semantic,
    }),
  );
  const row: Row = {
    split: p.split,
    ranks: [],
    relevantSim: [],
    strangerSim: [],
    missedRanks: [],
    relevant: p.relevant.length,
    reachedWords: p.relevant.filter((r) => reached.has(r)).length,
    reachedBoth: p.relevant.filter((r) => fused.has(r)).length,
    gained: p.relevant.filter((r) => fused.has(r) && !reached.has(r)).length,
    lost: p.relevant.filter((r) => reached.has(r) && !fused.has(r)).length,
  };
  for (const r of p.relevant) {
    const at = sims.findIndex((s) => s.name === r);
    row.ranks.push(at < 0 ? Infinity : at + 1);
    if (!reached.has(r)) row.missedRanks.push(at < 0 ? Infinity : at + 1);
    if (at >= 0) row.relevantSim.push(sims[at]!.sim);
  }
  const stranger = sims.find((s) => !p.relevant.includes(s.name));
  if (stranger) row.strangerSim.push(stranger.sim);
  rows.push(row);
}

const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
const splits = [...new Set(prompts.map((p) => p.split))];
console.log("split      relevant  hit@1  hit@4  sim(relevant)  sim(best stranger)  missed by words  of them in the model's top 4");
for (const split of [...splits, "all"]) {
  const chosen = rows.filter((r) => split === "all" || r.split === split);
  const ranks = chosen.flatMap((r) => r.ranks);
  const at = (k: number) => (ranks.length === 0 ? 0 : ranks.filter((r) => r <= k).length / ranks.length);
  const missed = chosen.flatMap((r) => r.missedRanks);
  console.log(
    `${split.padEnd(10)} ${String(ranks.length).padStart(8)}  ${at(1).toFixed(2)}   ${at(4).toFixed(2)}   ${mean(chosen.flatMap((r) => r.relevantSim)).toFixed(2)}           ${mean(chosen.flatMap((r) => r.strangerSim)).toFixed(2)}                ${String(missed.length).padStart(3)}              ${missed.filter((r) => r <= 4).length}`,
  );
}
console.log(`relevant rules reached (injected or likely), minSimilarity ${server.minSimilarity}:`);
for (const split of [...splits, "all"]) {
  const chosen = rows.filter((r) => split === "all" || r.split === split);
  const sum = (f: (r: Row) => number) => chosen.reduce((a, r) => a + f(r), 0);
  console.log(
    `${split.padEnd(10)} words ${sum((r) => r.reachedWords)}/${sum((r) => r.relevant)}  with embeddings ${sum((r) => r.reachedBoth)}/${sum((r) => r.relevant)}  (gained ${sum((r) => r.gained)}, lost ${sum((r) => r.lost)})`,
  );
}
warmMs.sort((a, b) => a - b);
const pct = (q: number) => warmMs[Math.min(warmMs.length - 1, Math.floor(q * warmMs.length))]!.toFixed(1);
console.log(
  `added time per prompt: first (empty cache, ${files.length} rules embedded) ${coldMs.toFixed(0)} ms; then (cached rules, one query) median ${pct(0.5)} ms, p90 ${pct(0.9)} ms, worst ${warmMs.at(-1)!.toFixed(1)} ms over ${warmMs.length} prompts`,
);
rmSync(state, { recursive: true, force: true });
