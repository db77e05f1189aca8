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
    fields: [d.candidate.kind === "session" ? -1 : SOURCES.indexOf(d.module.source), depthOf(d.key.folder), d.key.folder, d.moduleIndex, d.key.rank, d.key.path] as const,
  }));
  sortable.sort((a, b) => compareFields(a.fields, b.fields));
  const ordered = sortable.map((s) => s.d.candidate);
  const last = new Map<string, Candidate>();
  for (const candidate of ordered) {
    if (candidate.status !== "included") continue;
    const key = keyOf(candidate);
    const previous = last.get(key);
    if (previous) setStatus(previous, "overwritten", `overwritten by a later ${key}`);
    last.set(key, candidate);
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

function compareFields(a: ReadonlyArray<number | string>, b: ReadonlyArray<number | string>): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x - y;
    return compareText(String(x), String(y));
  }
  return 0;
}
