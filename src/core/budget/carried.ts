import { keyOf } from "../collector.js";
import type { Candidate, Entry } from "../types.js";

/**
 * For each entry, the duplicates whose text it sends (Candidate.heldBy, followed through a copy that is itself a
 * duplicate of another), so that the budget weighs the entry as strongly as what it carries and names them when it
 * gives way. Only duplicates of texts that are sent: a copy of what the agent already has is no loss.
 */
export function carriedTexts(candidates: readonly Candidate[], entries: readonly Entry[]): Map<string, Candidate[]> {
  const sent = new Set(entries.map(keyOf));
  const byKey = new Map<string, Candidate>();
  for (const c of candidates) if (c.heldBy !== undefined) byKey.set(keyOf(c), c);
  const out = new Map<string, Candidate[]>();
  for (const c of candidates) {
    if (c.status !== "duplicate" || c.heldBy === undefined) continue;
    let holder: string | undefined = c.heldBy;
    // A chain is as long as the copies of one text: bounded by the candidates, a cycle cut short by the count.
    for (let hops = 0; holder !== undefined && !sent.has(holder) && hops < candidates.length; hops++) holder = byKey.get(holder)?.heldBy;
    if (holder === undefined || !sent.has(holder)) continue;
    const list = out.get(holder);
    if (list) list.push(c);
    else out.set(holder, [c]);
  }
  return out;
}

/** Whether a duplicate's text is lost when its copy gives way (`sent` null) or is sent cut short as `sent`. */
export function textLost(duplicate: Candidate, sent: Entry | null): boolean {
  return sent === null || (sent.truncated && !sent.content.includes(duplicate.content.trim()));
}
