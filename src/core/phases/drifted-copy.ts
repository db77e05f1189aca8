import { baseName, withoutSuffix } from "../rel-path.js";
import type { Candidate } from "../types.js";
import { MIN_LINES, significantLines } from "./near-copy.js";

/**
 * Drifted copies: one rule kept for two agents (`.cursor/rules/permissions.mdc` and `.claude/rules/permissions.md`)
 * whose texts drifted apart by a paragraph, so that neither holds the nine tenths of the other a near copy needs
 * (near-copy.ts). The same name in two agents' rule folders of one folder is what says they are one rule; two thirds
 * of the longer's significant lines in common say the text is still mostly the same. Only such pairs are compared
 * (a handful per tree), never every text with every other.
 */

/** Two thirds of the longer text's significant lines, found in the other. */
const DRIFT_SHARE = 2 / 3;

/** What names a rule whatever agent's folder holds it: its folder's owner (before the agent's dot-folder) and its file name. */
function ruleName(path: string): string | null {
  const segments = path.split("/");
  const dot = segments.findIndex((s) => s.startsWith("."));
  if (dot < 0 || dot === segments.length - 1) return null;
  const name = withoutSuffix(baseName(path), [".instructions.md", ".mdc", ".md"]);
  return `${segments.slice(0, dot).join("/")}\0${name}`;
}

interface DriftedCopy {
  /** The copy left out. */
  copy: Candidate;
  /** The copy kept (sent, or what the agent has). */
  kept: Candidate;
  shared: number;
  /** The copy's own significant lines. */
  lines: number;
}

/**
 * Among the rules still sent (`sent`) and those the agent has (`known`, loaded itself or injected earlier), the pairs
 * of drifted copies, and which copy of each is kept: the one the agent has; else the longer (more significant lines,
 * then more characters), on a tie the one the selection puts first.
 */
export function driftedCopies(sent: readonly Candidate[], known: readonly Candidate[]): DriftedCopy[] {
  const groups = new Map<string, Array<{ c: Candidate; known: boolean; order: number }>>();
  const add = (c: Candidate, isKnown: boolean, order: number) => {
    if (c.source !== "rules-injector" || c.path === null) return;
    const name = ruleName(c.path);
    if (name === null) return;
    const list = groups.get(name);
    if (list) list.push({ c, known: isKnown, order });
    else groups.set(name, [{ c, known: isKnown, order }]);
  };
  sent.forEach((c, i) => add(c, false, i));
  known.forEach((c, i) => add(c, true, -known.length + i));
  const out: DriftedCopy[] = [];
  for (const group of groups.values()) {
    if (group.length < 2 || !group.some((m) => !m.known)) continue;
    const lines = new Map(group.map((m) => [m.c, significantLines(m.c.content)]));
    const size = (m: { c: Candidate }) => lines.get(m.c)!.length;
    const ranked = [...group].sort(
      (a, b) => Number(b.known) - Number(a.known) || size(b) - size(a) || b.c.content.length - a.c.content.length || a.order - b.order,
    );
    const keepers: Array<{ c: Candidate; set: Set<string> }> = [];
    for (const m of ranked) {
      const own = lines.get(m.c)!;
      const match =
        own.length < MIN_LINES
          ? undefined
          : keepers
              .map((k) => ({ k, shared: own.filter((l) => k.set.has(l)).length }))
              .find(({ k, shared }) => shared >= DRIFT_SHARE * Math.max(own.length, k.set.size));
      if (match === undefined || m.known) {
        keepers.push({ c: m.c, set: new Set(own) });
        continue;
      }
      out.push({ copy: m.c, kept: match.k.c, shared: match.shared, lines: own.length });
    }
  }
  return out;
}
