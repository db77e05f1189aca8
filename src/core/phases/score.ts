import { scoreRelevance } from "../prompt/relevance.js";
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
 * The "likely relevant" tier: rules below the injection threshold whose score still reaches LIKELY_MIN, at most
 * LIKELY_MAX of them per prompt (a longer list is one the agent stops reading). The agent is told to read them
 * before it starts: published skill-activation tests show a model picking from bare descriptions 20-50% of the time
 * and 80-84% when told explicitly to evaluate them. Chosen on the splits written before round 6 (npm run relevance).
 */
export const LIKELY_MIN = 0.1;
export const LIKELY_MAX = 3;

/**
 * Description-only candidates on the targets' paths are scored together (BM25 needs the whole set) against the
 * prompt plus the targets' path words; those at or above the threshold are included.
 */
export function scorePhase(drafts: Drafted[], query: string, threshold: number, stem: Stem): void {
  const pending = drafts.filter((d) => d.candidate.kind === "agent-requested" && d.candidate.status === "below-threshold" && d.relevance);
  if (pending.length === 0 || query.trim() === "") return;
  const scores = scoreRelevance(query, pending.map((d) => d.relevance!), stem);
  // Injection needs the prompt's own words; related words lift a rule only into the likely tier (round 6: on the
  // split written after the related-words table, the table raised reach from 0.77 to 0.88 and cost injection
  // precision 0.82 -> 0.70).
  const best = Math.max(0, ...scores.map((s) => s.direct));
  const floor = Math.round(RELATIVE_TO_BEST * best * 100) / 100;
  pending.forEach(({ candidate }, i) => {
    const { score, direct, words: evidence } = scores[i]!;
    candidate.score = score;
    const words = evidenceText(evidence.slice(0, 6));
    const shown = direct === score ? `relevance ${score.toFixed(2)}` : `relevance ${direct.toFixed(2)} (${score.toFixed(2)} with related words)`;
    if (direct < threshold) setStatus(candidate, "below-threshold", `${shown} < ${threshold}${words}`);
    else if (direct < floor) setStatus(candidate, "below-threshold", `${shown} < ${floor}, ${RELATIVE_TO_BEST} of the best match ${best.toFixed(2)}${words}`);
    else {
      candidate.score = direct;
      setStatus(candidate, "included", `${shown} >= ${threshold}${words}`);
    }
  });
  // The strongest of the rest, in score order (ties by id), make the likely tier.
  const rest = pending
    .map(({ candidate }, i) => ({ candidate, evidence: scores[i]!.words }))
    .filter(({ candidate }) => candidate.status === "below-threshold" && (candidate.score ?? 0) >= LIKELY_MIN)
    .sort((a, b) => b.candidate.score! - a.candidate.score! || (a.candidate.id < b.candidate.id ? -1 : 1))
    .slice(0, LIKELY_MAX);
  for (const { candidate, evidence } of rest) candidate.likely = likelyWhy(evidence);
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
