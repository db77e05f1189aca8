import { depthOf, dirOf, isWithin } from "../rel-path.js";
import { PRIORITIES, type Candidate } from "../types.js";

/**
 * How strong the evidence is that a candidate applies, as a sort key: the budget drops the weakest first
 * (DESIGN.md "Select: targets, prompt, budget"). Compared field by field, smaller is weaker:
 *
 * 1. priority: a lower priority always gives way before a higher one (the contract's order);
 * 2. tier, within a priority:
 *    0. a README: written for people, it is the least specific instruction there is;
 *    1. a relevance guess (a description-only rule or skill whose description resembled the prompt or the
 *       paths): the evidence is a word overlap, not a statement of the repository;
 *    2. an agent file at the far end of a folder chain (AGENTS.md of the root when a nearer one applies too);
 *    3. everything the repository or the user tied to this work explicitly: always-rules, glob matches of the
 *       targets, the nearest agent file of a target, `@rule`/`--rule`, config and session entries, keyword modes;
 * 3. within a tier: the relevance score for guesses (lowest first), the folder's depth for folder files (the
 *    far end of the chain first: a root file is further from a target than its package's), and among explicit
 *    entries a rule whose glob names a target exactly (`globs: lib/widget.js`) last: it is about that very file,
 *    where an always-rule or `lib/*.js` is about every file of a kind.
 * Ties go to the output order: the later entry gives way first, as before this order existed.
 */
export type EvidenceStrength = readonly [priority: number, tier: number, within: number];

const Tier = { Readme: 0, Guess: 1, FarFolder: 2, Explicit: 3 } as const;

export function evidenceStrength(candidate: Candidate, nearest: ReadonlySet<string>, targets: readonly string[] = []): EvidenceStrength {
  const priority = PRIORITIES.length - 1 - PRIORITIES.indexOf(candidate.priority);
  if (candidate.source === "directory-readme") return [priority, Tier.Readme, folderDepth(candidate.path)];
  if (candidate.kind === "agent-requested" || candidate.byDescription === true) return [priority, Tier.Guess, candidate.score ?? 0];
  if (candidate.kind === "directory" && candidate.path !== null && !nearest.has(candidate.path)) return [priority, Tier.FarFolder, folderDepth(candidate.path)];
  return [priority, Tier.Explicit, namesTarget(candidate, targets) ? 1 : 0];
}

/** The stronger of two strengths (a text that carries another's copy is as strong as the copy it carries). */
export function strongerOf(a: EvidenceStrength, b: EvidenceStrength): EvidenceStrength {
  return compareStrength(a, b) >= 0 ? a : b;
}

/** Characters that make a glob a pattern rather than one path. */
const GLOB_SYNTAX = /[*?[\]{}()!+@]/;

/**
 * A glob rule one of whose globs is a target's own path, written out (no pattern syntax): as a path anchored at its
 * rules folder's owner (`src/a.ts` for `pkg/src/a.ts`) or a bare name (`a.ts`), so the target's path ends with it.
 */
function namesTarget(candidate: Candidate, targets: readonly string[]): boolean {
  if (candidate.kind !== "auto" || targets.length === 0) return false;
  return candidate.globs.some((glob) => {
    const path = glob.trim().replace(/^\.\//, "");
    return path !== "" && !GLOB_SYNTAX.test(path) && targets.some((t) => t === path || t.endsWith(`/${path}`));
  });
}

/**
 * The agent files nearest to each target: for every target, those in the deepest folder on its path that holds
 * one (several when one folder holds AGENTS.md and CLAUDE.md). Without targets, the root's.
 */
export function nearestAgentFiles(candidates: readonly Candidate[], targets: readonly string[]): Set<string> {
  const files = candidates.filter(
    (c) =>
      c.kind === "directory" &&
      c.source === "directory-agents" &&
      c.path !== null &&
      c.importedBy === undefined &&
      (c.status === "included" || c.status === "trimmed"),
  );
  const nearest = new Set<string>();
  for (const targetDir of targets.length > 0 ? targets.map(dirOf) : [""]) {
    let best = -1;
    let chosen: string[] = [];
    for (const file of files) {
      const folder = folderOf(file.path!);
      if (!isWithin(targetDir, folder)) continue;
      const depth = depthOf(folder);
      if (depth > best) [best, chosen] = [depth, [file.path!]];
      else if (depth === best) chosen.push(file.path!);
    }
    for (const path of chosen) nearest.add(path);
  }
  return nearest;
}

/** Indexes of `strengths`, weakest first; equal strengths in reverse of their given (output) order. */
export function weakestFirst(strengths: readonly EvidenceStrength[]): number[] {
  return strengths.map((_, i) => i).sort((a, b) => compareStrength(strengths[a]!, strengths[b]!) || b - a);
}

export function compareStrength(a: EvidenceStrength, b: EvidenceStrength): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** A file's folder as a scope: `.claude/CLAUDE.md` belongs to the root, `pkg/.claude/CLAUDE.md` to `pkg`. */
function folderOf(path: string): string {
  const parts = dirOf(path).split("/");
  while (parts.length > 0 && (parts.at(-1)!.startsWith(".") || parts.at(-1) === "")) parts.pop();
  return parts.join("/");
}

function folderDepth(path: string | null): number {
  return path === null ? 0 : depthOf(folderOf(path));
}
