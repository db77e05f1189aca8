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
 * Description-only candidates on the targets' paths are scored together (BM25 needs the whole set) against the
 * prompt plus the targets' path words; those at or above the threshold are included.
 */
export function scorePhase(drafts: Drafted[], query: string, threshold: number, stem: Stem): void {
  const pending = drafts.filter((d) => d.candidate.kind === "agent-requested" && d.candidate.status === "below-threshold" && d.relevance);
  if (pending.length === 0 || query.trim() === "") return;
  const scores = scoreRelevance(query, pending.map((d) => d.relevance!), stem);
  const best = Math.max(0, ...scores.map((s) => s.score));
  const floor = Math.round(RELATIVE_TO_BEST * best * 100) / 100;
  pending.forEach(({ candidate }, i) => {
    const { score, words: evidence } = scores[i]!;
    candidate.score = score;
    const words = evidenceText(evidence.slice(0, 6));
    if (score < threshold) setStatus(candidate, "below-threshold", `relevance ${score.toFixed(2)} < ${threshold}${words}`);
    else if (score < floor) setStatus(candidate, "below-threshold", `relevance ${score.toFixed(2)} < ${floor}, ${RELATIVE_TO_BEST} of the best match ${best.toFixed(2)}${words}`);
    else setStatus(candidate, "included", `relevance ${score.toFixed(2)} >= ${threshold}${words}`);
  });
}

/** ` (status, package; related: database)`: the prompt's words, then the rule's words related to them; "" for none. */
function evidenceText(words: Array<{ word: string; related: boolean }>): string {
  // Two prompt words can bring in the same related word: it is named once.
  const said = [...new Set(words.filter((w) => !w.related).map((w) => w.word))];
  const related = [...new Set(words.filter((w) => w.related).map((w) => w.word))];
  const parts = [...(said.length > 0 ? [said.join(", ")] : []), ...(related.length > 0 ? [`related: ${related.join(", ")}`] : [])];
  return parts.length > 0 ? ` (${parts.join("; ")})` : "";
}
