import { scoreRelevance, type RelevanceDoc, type RelevanceScore, type ScoreOptions } from "../prompt/relevance.js";
import { cosine, embeddingText, reciprocalRankFusion, type SemanticInput } from "../prompt/semantic.js";
import type { Stem } from "../prompt/words.js";
import { setStatus } from "../sources/source.js";
import type { Drafted } from "./drafted.js";

// The threshold is a setting (minRelevance): its default lives in the config table, with why it is what it is.
export { DEFAULT_MIN_RELEVANCE } from "../config-table.js";

/**
 * A description-only rule is included when its score reaches DEFAULT_MIN_RELEVANCE (or the config's) and
 * RELATIVE_TO_BEST of the best score of the same prompt: a prompt about one topic brushes others' words, and those
 * scores stay far below the topic's own. Chosen in round 3 on every split written before it (npm run relevance),
 * then frozen.
 */
export const RELATIVE_TO_BEST = 0.75;

/**
 * The "likely relevant" tier: rules below the injection threshold whose score still reaches LIKELY_MIN and
 * LIKELY_RELATIVE of the best of them, at most LIKELY_MAX per prompt (a longer list is one the agent stops reading).
 * The agent is told to read them before it starts: published skill-activation tests show a model picking from bare
 * descriptions 20-50% of the time and 80-84% when told explicitly to evaluate them. Round 9 listed four from a tenth
 * and a quarter of the best (2.5 a prompt, and 22 of 26 prompts needing no rule got a list: issue 45); round 12 lists
 * only what stands out, at most three: over every split then, reach 0.82 -> 0.81 with 2.0 -> 1.4 rules listed per
 * prompt (npm run relevance, docs/relevance.md).
 */
export const LIKELY_MIN = 0.2;
export const LIKELY_RELATIVE = 0.5;
export const LIKELY_MAX = 3;

/**
 * Description-only candidates on the targets' paths are scored together (BM25 needs the whole set) against the
 * prompt plus the targets' path words; those at or above the threshold are included. With `semantic` (the user's
 * embeddings), the likely tier is chosen on the lexical and the semantic rankings fused; injection stays lexical.
 * `said`: the prompt without its paths. The likely tier asks the agent to read a rule because of what the user asked
 * for: with no words of the user's (no prompt, or a prompt that is only a path) there is none, and a rule whose
 * evidence is only path words (`server/api/x.ts` for a git-commit skill) is not in it.
 * Returns the rules scored (what the pipeline asks the embedding server about).
 */
export function scorePhase(
  drafts: Drafted[],
  query: string,
  threshold: number,
  stem: Stem,
  semantic?: SemanticInput,
  said = query,
  options: ScoreOptions = {},
): RelevanceDoc[] {
  const pending = drafts.filter(
    (d) => (d.candidate.kind === "agent-requested" || d.candidate.byDescription === true) && d.candidate.status === "below-threshold" && d.relevance,
  );
  if (pending.length === 0 || query.trim() === "") return [];
  const docs = pending.map((d) => d.relevance!);
  const scores = scoreRelevance(query, docs, stem, options);
  // The same scores on the user's words alone, where paths added words of their own: injection needs strong evidence
  // in the user's words, and a word score counts for the likely tier only where some of it is the user's.
  const saidScores = said.trim() === "" ? undefined : said === query ? scores : scoreRelevance(said, docs, stem, options);
  // Cosine similarity to the prompt, where the server gave the rule a vector.
  const similarity = semantic ? docs.map((doc) => similarityOf(semantic, doc)) : undefined;
  const similar = (i: number) => (similarity && similarity[i] !== undefined ? `; similarity ${similarity[i]!.toFixed(2)}` : "");
  // Injection is decided on the prompt's own words alone (`direct`), and needs strong evidence in them (issue 45: a
  // one-word description let body words inject): a trigger its author wrote, or two words of its name, description,
  // `when_to_use` or aliases. Related words, typo readings, body words and path words lift a rule into the likely
  // tier at most.
  const best = Math.max(0, ...scores.map((s) => s.direct));
  const floor = Math.round(RELATIVE_TO_BEST * best * 100) / 100;
  pending.forEach(({ candidate }, i) => {
    const { score, direct, words: evidence } = scores[i]!;
    const strong = saidScores === undefined ? undefined : saidScores[i]!.strong;
    candidate.score = score;
    const words = evidenceText(evidence.slice(0, 6));
    // A glob rule no target matched is weighed by its description: explain says so first.
    const via = candidate.byDescription === true ? "no target matches its globs; by its description: " : "";
    const shown = (bound: number) =>
      via + (direct === score ? `relevance ${apart(direct, bound)}` : `relevance ${apart(direct, bound)} (${score.toFixed(2)} with related words)`);
    if (direct < threshold) setStatus(candidate, "below-threshold", `${shown(threshold)} < ${threshold}${words}${similar(i)}`);
    else if (direct < floor)
      setStatus(candidate, "below-threshold", `${shown(floor)} < ${floor}, ${RELATIVE_TO_BEST} of the best match ${best.toFixed(2)}${words}${similar(i)}`);
    else if (strong === undefined)
      setStatus(
        candidate,
        "below-threshold",
        `${shown(threshold)} >= ${threshold}${words}, but ${weakWhy(saidScores?.[i])}: not enough to inject${similar(i)}`,
      );
    else {
      candidate.score = direct;
      setStatus(candidate, "included", `${shown(threshold)} >= ${threshold}${words}; ${strongWhy(strong)}${similar(i)}`);
    }
  });
  if (saidScores === undefined) return docs;
  // The strongest of the rest, in score order (ties by id), make the likely tier: only rules the user's words (or
  // words related to them, or a typo's reading) name in their name, description, triggers or aliases; the body alone
  // is not enough. With embeddings: in the order of the two rankings fused, and a rule the words missed may join when
  // its similarity reaches the user's minSimilarity. Embeddings never inject (a model's similarity says "about the same
  // topic", not "applies here"; docs/relevance.md): a rule they lift goes to the likely tier, where the agent reads it
  // and decides.
  const fused = similarity
    ? reciprocalRankFusion(
        scores.map((s) => s.score),
        similarity,
      )
    : undefined;
  const left = pending
    .map(({ candidate }, i) => ({ candidate, evidence: scores[i]!.words, i }))
    .filter(({ candidate }) => candidate.status === "below-threshold");
  const wordsOf = (i: number) => (saidScores[i]!.score > 0 && saidScores[i]!.named ? scores[i]!.score : 0);
  // A word score counts from LIKELY_MIN and LIKELY_RELATIVE of the best left out: a stray word or two scores far below
  // what the prompt is about.
  const likelyFloor = Math.max(LIKELY_MIN, LIKELY_RELATIVE * Math.max(0, ...left.map(({ i }) => wordsOf(i))));
  // What would inject a rule (a trigger its author wrote, two words of its name or description) earns it a place when
  // a cut left it out, however low its score (round 13: "the triage bot got tricked by a ticket …" named two words of
  // the llm-prompts skill's description at 0.15, and the skill was only in the index; fresh-r12's reach 0.46 -> 0.53).
  const earned = (i: number) => wordsOf(i) >= likelyFloor || saidScores[i]!.strong !== undefined;
  const rest = left
    .filter(({ i }) => earned(i) || (semantic !== undefined && (similarity![i] ?? -1) >= semantic.minSimilarity))
    .sort((a, b) => (fused ? fused[b.i]! - fused[a.i]! : 0) || b.candidate.score! - a.candidate.score! || (a.candidate.id < b.candidate.id ? -1 : 1))
    .slice(0, LIKELY_MAX);
  for (const { candidate, evidence, i } of rest) {
    const lexical = earned(i);
    candidate.likely = lexical ? likelyWhy(evidence) : `the prompt means much the same as its description (similarity ${similarity![i]!.toFixed(2)})`;
  }
  return docs;
}

/** explain's words for what injected a rule. */
function strongWhy(strong: NonNullable<RelevanceScore["strong"]>): string {
  return "trigger" in strong
    ? `the prompt says "${strong.trigger}", a trigger its author wrote`
    : `the prompt says ${strong.words.join(", ")} of its name or description`;
}

/** explain's words for why a rule that scored enough is not injected. */
function weakWhy(said: RelevanceScore | undefined): string {
  if (said === undefined) return "its words come from paths only, not from words the user wrote";
  if (said.named) return "fewer than two words of its name or description are the prompt's own, and no trigger its author wrote";
  return "no word of its name, description or triggers is the prompt's own";
}

/**
 * A score as explain prints it beside the bound it was compared with: two decimals, more where two would print a score
 * just under the bound as the bound itself ("relevance 0.35 < 0.35" is 0.348 < 0.35).
 */
export function apart(value: number, bound: number): string {
  let digits = 2;
  while (digits < 6 && value !== bound && Number(value.toFixed(digits)) === Number(bound.toFixed(digits))) digits++;
  return value.toFixed(digits);
}

function similarityOf(semantic: SemanticInput, doc: RelevanceDoc): number | undefined {
  const vector = semantic.vectors.get(embeddingText(doc));
  return vector === undefined ? undefined : Math.round(cosine(semantic.query, vector) * 1000) / 1000;
}

/** The likely tier's one line of why: the prompt's words as written, then the rule's words related to them. */
function likelyWhy(words: Array<{ word: string; related: boolean }>): string {
  const said = [...new Set(words.filter((w) => !w.related).map((w) => w.word))].slice(0, 4);
  const related = [...new Set(words.filter((w) => w.related).map((w) => w.word))].slice(0, 3);
  if (said.length > 0) return `the prompt says ${said.join(", ")}${related.length > 0 ? ` (related: ${related.join(", ")})` : ""}`;
  return `the prompt speaks of ${related.join(", ")}`;
}

/** ` (status, package; related: database)`: the prompt's words, then the rule's words related to them; "" for none. */
function evidenceText(words: Array<{ word: string; related: boolean }>): string {
  // Two prompt words can bring in the same related word: it is named once.
  const said = [...new Set(words.filter((w) => !w.related).map((w) => w.word))];
  const related = [...new Set(words.filter((w) => w.related).map((w) => w.word))];
  const parts = [...(said.length > 0 ? [said.join(", ")] : []), ...(related.length > 0 ? [`related: ${related.join(", ")}`] : [])];
  return parts.length > 0 ? ` (${parts.join("; ")})` : "";
}
