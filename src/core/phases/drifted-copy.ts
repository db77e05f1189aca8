import { baseName, withoutSuffix } from "../rel-path.js";
import type { Candidate } from "../types.js";
import { isHeld, MIN_LINES, significantLines } from "./near-copy.js";

/**
 * Drifted copies: one rule kept for two agents (`.cursor/rules/permissions.mdc` and `.claude/rules/permissions.md`)
 * whose texts drifted apart by a paragraph, so that neither holds the nine tenths of the other a near copy needs
 * (near-copy.ts). The same name in two agents' rule folders of one folder is what says they are one rule; two thirds
 * of the longer's significant lines in common say the text is still mostly the same. Only such pairs are compared
 * (a handful per tree), never every text with every other.
 *
 * A copy the session gave earlier is what the agent has of the rule: a copy that holds nine tenths of what was
 * given (its whole text, or its head when the budget cut it) is not sent either, however much it grew of its own.
 * The rest of a cut entry is never sent later (the note names its file); neither is the rest of its other copy.
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
  /** The copy's own significant lines; with `given`, the lines of what was given. */
  lines: number;
  /** Left out as holding what the session gave of `kept` (nine tenths of its lines), not as a drifted copy of it. */
  given?: true;
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
    const keepers: Array<{ c: Candidate; set: Set<string>; given?: readonly string[] }> = [];
    for (const m of ranked) {
      const own = lines.get(m.c)!;
      if (m.known) {
        keepers.push({ c: m.c, set: new Set(own), ...(m.c.status === "already-injected" && { given: givenLines(m.c, own) }) });
        continue;
      }
      const match =
        own.length < MIN_LINES
          ? undefined
          : keepers
              .map((k) => ({ k, shared: own.filter((l) => k.set.has(l)).length }))
              .find(({ k, shared }) => shared >= DRIFT_SHARE * Math.max(own.length, k.set.size));
      if (match !== undefined) {
        out.push({ copy: m.c, kept: match.k.c, shared: match.shared, lines: own.length });
        continue;
      }
      const held = own.length < MIN_LINES ? undefined : holdsGiven(new Set(own), keepers);
      if (held !== undefined) out.push({ copy: m.c, kept: held.c, shared: held.shared, lines: held.of, given: true });
      else keepers.push({ c: m.c, set: new Set(own) });
    }
  }
  return out;
}

/** What the session gave of a text it has: the head the budget left of it (sentChars), else the whole. */
function givenLines(c: Candidate, own: string[]): readonly string[] {
  return c.sentChars === undefined ? own : significantLines(c.content.slice(0, c.sentChars));
}

/** The first copy given earlier whose given lines a copy holds nine tenths of. */
function holdsGiven(
  mine: ReadonlySet<string>,
  keepers: ReadonlyArray<{ c: Candidate; given?: readonly string[] }>,
): { c: Candidate; shared: number; of: number } | undefined {
  for (const { c, given } of keepers) {
    if (given === undefined) continue;
    const shared = given.filter((l) => mine.has(l)).length;
    if (isHeld(shared, given.length)) return { c, shared, of: given.length };
  }
  return undefined;
}
