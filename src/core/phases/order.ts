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
  // --all sorts thousands of drafts across a few hundred folders: each folder's place (depth, then name) is worked
  // out once, and the source's rank, the folder's place and the module's place make one number per draft. The
  // comparator reads only these records (one shape), never the drafts, whose shapes differ by module.
  const folders = new Map<string, number>();
  for (const d of drafts) folders.set(d.key.folder, 0);
  const byPlace = [...folders.keys()].map((folder) => ({ folder, depth: depthOf(folder) }));
  byPlace.sort((a, b) => a.depth - b.depth || compareText(a.folder, b.folder));
  for (let i = 0; i < byPlace.length; i++) folders.set(byPlace[i]!.folder, i);
  const sourceRank = new Map<string, number>(SOURCES.map((source, i) => [source, i]));
  let modules = 1;
  for (const d of drafts) if (d.moduleIndex >= modules) modules = d.moduleIndex + 1;
  const sortable = drafts.map((d) => {
    // Entries registered into a session were registered before this build: they come first (the seed's rule).
    const source = d.candidate.kind === "session" ? -1 : (sourceRank.get(d.module.source) ?? -1);
    return { d, place: ((source + 1) * byPlace.length + folders.get(d.key.folder)!) * modules + d.moduleIndex, rank: d.key.rank, path: d.key.path };
  });
  sortable.sort((a, b) => a.place - b.place || a.rank - b.rank || compareText(a.path, b.path));
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

/**
 * Priority first, registration order after: the order of the output and of explain. A stable partition into the
 * priorities' lists (one pass) instead of a sort that looked each priority up twice per comparison; a priority
 * outside the list (never from a checked config or rule) comes first, as indexOf's -1 put it.
 */
export function byPriority(ordered: Candidate[]): Candidate[] {
  const lists: Candidate[][] = [[]];
  const listOf = new Map<string, Candidate[]>();
  for (const priority of PRIORITIES) {
    const list: Candidate[] = [];
    lists.push(list);
    listOf.set(priority, list);
  }
  for (const candidate of ordered) (listOf.get(candidate.priority) ?? lists[0]!).push(candidate);
  return lists.flat();
}
