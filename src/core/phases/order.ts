import { keyOf } from "../collector.js";
import { compareText, depthOf } from "../rel-path.js";
import { setStatus } from "../sources/source.js";
import { PRIORITIES, SOURCES, type Candidate } from "../types.js";
import type { Drafted } from "./drafted.js";

/**
 * Registration order, general before specific: the contract source's place (keywords, rules, agents files,
 * READMEs, custom), then the folder (root first, then by name), then the module's place in SOURCE_MODULES, its
 * own rank, the path. Earlier registrations of the same source:id are then overwritten by the later one, as in
 * the collector.
 */
export function orderPhase(drafts: Drafted[]): Candidate[] {
  const sortable = drafts.map((d) => ({
    d,
    // Entries registered into a session were registered before this build: they come first (the seed's rule).
    source: d.candidate.kind === "session" ? -1 : SOURCES.indexOf(d.module.source),
    depth: depthOf(d.key.folder),
  }));
  sortable.sort(
    (a, b) =>
      a.source - b.source ||
      a.depth - b.depth ||
      compareText(a.d.key.folder, b.d.key.folder) ||
      a.d.moduleIndex - b.d.moduleIndex ||
      a.d.key.rank - b.d.key.rank ||
      compareText(a.d.key.path, b.d.key.path),
  );
  const ordered = sortable.map((s) => s.d.candidate);
  // By source, then id: no `source:id` string made and hashed for each of --all's thousands.
  const last = new Map<string, Map<string, Candidate>>();
  for (const candidate of ordered) {
    if (candidate.status !== "included") continue;
    let ids = last.get(candidate.source);
    if (ids === undefined) last.set(candidate.source, (ids = new Map()));
    const previous = ids.get(candidate.id);
    if (previous) setStatus(previous, "overwritten", `overwritten by a later ${keyOf(candidate)}`);
    ids.set(candidate.id, candidate);
  }
  return ordered;
}

/** Priority first, registration order after: the order of the output and of explain. */
export function byPriority(ordered: Candidate[]): Candidate[] {
  const rank = (c: Candidate) => PRIORITIES.indexOf(c.priority);
  return ordered
    .map((candidate, index) => ({ candidate, index }))
    .sort((a, b) => rank(a.candidate) - rank(b.candidate) || a.index - b.index)
    .map((x) => x.candidate);
}
