import { scoreRelevance } from "../prompt/relevance.js";
import type { Stem } from "../prompt/words.js";
import { setStatus } from "../sources/source.js";
import type { Drafted } from "./drafted.js";

/** The centre of the range of thresholds with the best F1 on the tuning prompts (npm run relevance). */
export const DEFAULT_MIN_RELEVANCE = 0.25;

/**
 * Description-only candidates on the targets' paths are scored together (BM25 needs the whole set) against the
 * prompt plus the targets' path words; those at or above the threshold are included.
 */
export function scorePhase(drafts: Drafted[], query: string, threshold: number, stem: Stem): void {
  const pending = drafts.filter((d) => d.candidate.kind === "agent-requested" && d.candidate.status === "below-threshold" && d.relevance);
  if (pending.length === 0 || query.trim() === "") return;
  const scores = scoreRelevance(query, pending.map((d) => d.relevance!), stem);
  pending.forEach(({ candidate }, i) => {
    const { score, matched } = scores[i]!;
    const words = matched.length > 0 ? ` (${matched.slice(0, 6).join(", ")})` : "";
    if (score >= threshold) setStatus(candidate, "included", `relevance ${score.toFixed(2)} >= ${threshold}${words}`);
    else setStatus(candidate, "below-threshold", `relevance ${score.toFixed(2)} < ${threshold}${words}`);
  });
}
