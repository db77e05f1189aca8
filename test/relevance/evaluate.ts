/**
 * Precision and recall of agent-requested rule selection on the labelled prompts in fixtures/relevance,
 * through the real selection (selectContext with the stemmer the CLI uses). Prints one line per split:
 * injection precision and recall, and reach = the share of relevant rules injected or listed in the
 * "likely relevant" tier (the agent is told to read those before it starts), with the likely tier's mean length.
 *   npm run relevance            figures per split
 *   npm run relevance -- --show  every prompt with its scores (TOPN=8: the eight best-scored rules, not three)
 *   npm run relevance -- --without=related,typo  with the scorer's special cases named turned off (MECHANISMS in
 *                                src/core/prompt/relevance.ts), to measure what each earns
 *   npm run relevance -- --embeddings=fake  with the opt-in embeddings, against the fake embedding server and its
 *                                concept table (test/relevance/fake-concepts.ts: NOT a model)
 *   npm run relevance -- --embeddings=env   against the server CTXINJECT_EMBEDDINGS_* name (your own Ollama, say;
 *                                --min-similarity=0.45 sets the model's cut; test/relevance/real-embed-server.ts)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stemmer } from "stemmer";
import { defaultConfig } from "../../src/core/config.js";
import { DEFAULT_MIN_RELEVANCE, selectContext } from "../../src/core/select.js";
import { MECHANISMS, type Mechanism } from "../../src/core/prompt/relevance.js";
import { ruleName } from "../../src/core/sources/rules.js";
import { embeddingsServer, semanticVectors, type EmbeddingsServer } from "../../src/io/embeddings.js";
import { relevanceFixture } from "./fixture.js";
import { startFakeEmbeddings, type FakeEmbeddings } from "../helpers/fake-embeddings.js";
import { RELEVANCE_CONCEPTS } from "./fake-concepts.js";

// Every rule folder and skill of the fixture, found as a build finds them, and every labelled prompt.
const { files, prompts } = await relevanceFixture();
const show = process.argv.includes("--show");
const thresholdArg = process.argv.find((a) => a.startsWith("--min-relevance="));
const threshold = thresholdArg ? Number(thresholdArg.split("=")[1]) : DEFAULT_MIN_RELEVANCE;
const withoutArg = process.argv.find((a) => a.startsWith("--without="))?.split("=")[1];
const without = new Set((withoutArg ?? "").split(",").filter((m) => m !== "") as Mechanism[]);
for (const m of without) if (!(MECHANISMS as readonly string[]).includes(m)) throw new Error(`--without=${m}: expected some of ${MECHANISMS.join(", ")}`);
if (without.size > 0) console.log(`without: ${[...without].join(", ")}`);

// Embeddings: the real client (io/embeddings.ts) against the fake server or the one the environment names, with a
// state folder of this run's own (its cache) and a timeout long enough that a real model's first batch is measured.
const embeddingsArg = process.argv.find((a) => a.startsWith("--embeddings="))?.split("=")[1];
let fake: FakeEmbeddings | undefined;
let server: EmbeddingsServer | null = null;
const state = mkdtempSync(join(tmpdir(), "ctxinject-relevance-"));
if (embeddingsArg === "fake") {
  fake = await startFakeEmbeddings(RELEVANCE_CONCEPTS);
  server = embeddingsServer(
    { ...defaultConfig(), relevance: { embeddings: { provider: "ollama", model: "fake-concepts", baseUrl: fake.url, timeoutMs: 10_000 } } },
    {},
  ).server;
} else if (embeddingsArg === "env") {
  server = embeddingsServer(defaultConfig(), process.env).server;
  if (server === null) throw new Error("--embeddings=env: set CTXINJECT_EMBEDDINGS_PROVIDER and CTXINJECT_EMBEDDINGS_MODEL");
  server.timeoutMs = Math.max(server.timeoutMs, 30_000);
}
// The environment cannot set minSimilarity (a model's own scale): the flag does, for a sweep over a real model.
const minSimilarityArg = process.argv.find((a) => a.startsWith("--min-similarity="));
if (server && minSimilarityArg) server.minSimilarity = Number(minSimilarityArg.split("=")[1]);
if (server)
  console.log(
    `embeddings: ${server.provider} ${server.model} at ${server.baseUrl}, minSimilarity ${server.minSimilarity}${fake ? " (the FAKE server's concept table, not a model)" : ""}`,
  );
async function select(prompt: string) {
  const input = { files, targets: [], prompt, stem: stemmer, minRelevance: threshold, config: defaultConfig(), scoring: { without } };
  const first = selectContext(input);
  if (!server || !first.scored || first.scored.length === 0) return first;
  const result = await semanticVectors(server, prompt, first.scored, { CTXINJECT_STATE_DIR: state }, { waitForRules: true });
  if (!result.semantic) throw new Error(result.warnings.map((w) => w.message).join("; "));
  return selectContext({ ...input, semantic: result.semantic });
}

/** A rule's name (its file name) or a skill's (its folder). */
const nameOf = (id: string) => (id.endsWith("/SKILL.md") ? id.split("/").at(-2)! : ruleName(id));
const splits = [...new Set(prompts.map((p) => p.split))];
console.log(`${files.length} rules and skills, ${prompts.length} prompts, minRelevance ${threshold}`);
for (const split of [...splits, "all"]) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let reached = 0;
  let likelyListed = 0;
  let noRule = 0;
  let noRuleInjected = 0;
  const chosen = prompts.filter((p) => split === "all" || p.split === split);
  for (const p of chosen) {
    const selection = await select(p.prompt);
    const picked = new Set(selection.entries.filter((e) => e.kind === "agent-requested").map((e) => nameOf(e.id)));
    const likely = new Set(selection.omitted.filter((o) => o.tier === "likely").map((o) => nameOf(o.id)));
    likelyListed += likely.size;
    for (const r of p.relevant) picked.has(r) ? tp++ : fn++;
    for (const r of p.relevant) if (picked.has(r) || likely.has(r)) reached++;
    const wrong = [...picked].filter((r) => !p.relevant.includes(r));
    fp += wrong.length;
    if (p.relevant.length === 0) {
      noRule++;
      if (picked.size > 0) noRuleInjected++;
    }
    if (show) {
      const scoreOf = (reason: string) => Number(/^relevance ([\d.]+)/.exec(reason)?.[1] ?? 0);
      const reasons = selection.candidates
        .filter((c) => c.kind === "agent-requested" && scoreOf(c.reason) > 0)
        .sort((a, b) => scoreOf(b.reason) - scoreOf(a.reason));
      const top = reasons.map((c) => `${nameOf(c.id)} ${c.reason.replace(/^relevance /, "")}`).slice(0, Number(process.env.TOPN ?? 3));
      console.log(
        `  [${split}] ${p.prompt}\n      expected ${p.relevant.join(", ") || "none"}; picked ${[...picked].join(", ") || "none"}; likely ${[...likely].join(", ") || "none"}\n      ${top.join("\n      ")}`,
      );
    }
  }
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const reach = tp + fn === 0 ? 1 : reached / (tp + fn);
  const perPrompt = (likelyListed / Math.max(1, chosen.length)).toFixed(2);
  // The targets' other two figures (issue 45): the share of prompts needing no rule that still get an injection.
  const noRuleShare = noRule === 0 ? "  -  " : (noRuleInjected / noRule).toFixed(2);
  console.log(
    `${split.padEnd(9)} prompts ${String(chosen.length).padStart(3)}  precision ${precision.toFixed(2)}  recall ${recall.toFixed(2)}  reach ${reach.toFixed(2)}  likely/prompt ${perPrompt}  no-rule injected ${noRuleShare} (${noRuleInjected}/${noRule})  (tp ${tp}, fp ${fp}, fn ${fn})`,
  );
}
await fake?.close();
rmSync(state, { recursive: true, force: true });
