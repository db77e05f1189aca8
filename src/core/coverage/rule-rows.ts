/**
 * The coverage model's last phase: one row per instruction file — how many tracked files it applies to, each judged
 * by itself, and how each agent gets it where it applies (the state table the cells filled).
 */
import { compareText, firstFrom } from "../rel-path.js";
import type { Candidate } from "../types.js";
import { mayApply } from "./candidates.js";
import { NEVER, STATES } from "./cells.js";
import { globBounds } from "./glob-bounds.js";
import type { GlobMatches } from "./glob-matches.js";
import { eachFolder, type Folder } from "./folders.js";
import type { CoverageInput, CoverageRule, RuleState } from "./model-types.js";

/** The state table's rows by file: how each agent gets it at best (agents that never do left out). */
export function statesByFile(indexOf: ReadonlyMap<Candidate, number>, state: Uint8Array, names: readonly string[]): Map<string, Record<string, RuleState>> {
  const agentCount = names.length;
  const states = new Map<string, Record<string, RuleState>>();
  for (const [c, i] of indexOf) {
    if (c.path === null) continue;
    const byAgent: Record<string, RuleState> = {};
    names.forEach((name, agent) => {
      const got = state[i * agentCount + agent]!;
      if (got !== NEVER) byAgent[name] = STATES[got]!;
    });
    states.set(c.path, byAgent);
  }
  return states;
}

/** Every instruction file: how many files it applies to, each judged by itself, and how each agent gets it. */
export function ruleRows(
  input: CoverageInput,
  root: Folder,
  matches: GlobMatches,
  states: Map<string, Record<string, RuleState>>,
  copiedBy: Map<string, Record<string, string>>,
): CoverageRule[] {
  const byPath = new Map<string, Folder>();
  for (const folder of eachFolder(root)) byPath.set(folder.path, folder);
  const rows: CoverageRule[] = [];
  for (const c of input.candidates) {
    if (c.path === null) continue;
    const anchor = input.anchorOf(c.path);
    let count = 0;
    if (mayApply(c)) {
      if (c.kind === "auto") count = countMatches(c, anchor, matches);
      else count = byPath.get(anchor)?.files ?? 0;
    }
    const got = states.get(c.path) ?? {};
    const via = copiedBy.get(c.path) ?? {};
    const agents: Record<string, RuleState> = {};
    const copies: Record<string, string> = {};
    for (const p of input.profiles) {
      const state = got[p.name] ?? "never";
      agents[p.name] = state;
      if (state === "copy") copies[p.name] = via[p.name]!;
    }
    const row: CoverageRule = { file: c.path, source: c.source, kind: c.kind, files: count, agents };
    if (Object.keys(copies).length > 0) row.copies = copies;
    rows.push(row);
  }
  return rows.sort((a, b) => compareText(a.file, b.file));
}

/**
 * The files (sorted) an auto rule's globs match, each judged by itself: only those within the globs' literal bounds
 * are matched (core/coverage/glob-bounds.ts), found by a binary search for where they start (4 rules at the top of
 * a 100k-file tree were 250k matches, most against files no literal part of the globs allowed).
 */
function countMatches(c: Candidate, anchor: string, matches: GlobMatches): number {
  const files = matches.code;
  const under = anchor === "" ? "" : `${anchor}/`;
  const bounds = globBounds(c.globs);
  if (bounds.length === 0) return 0;
  // One pattern: the files starting with its literal start follow one another. Several: those under the anchor.
  const starts = bounds.map((b) => under + b.start);
  const one = bounds.length === 1;
  let count = 0;
  for (let i = firstFrom(files, one ? starts[0]! : under); i < files.length; i++) {
    const file = files[i]!;
    if (!file.startsWith(one ? starts[0]! : under)) break;
    let within = false;
    for (let b = 0; b < bounds.length && !within; b++) within = file.endsWith(bounds[b]!.end) && (one || file.startsWith(starts[b]!));
    if (within && matches.matchOf(c, i) !== null) count++;
  }
  return count;
}
