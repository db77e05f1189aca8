import { compareStrength, evidenceStrength, nearestAgentFiles, type EvidenceStrength } from "../budget/evidence.js";
import { firstOfEachText, keyOf } from "../collector.js";
import { flattenImports } from "../parse/imports.js";
import { setStatus } from "../sources/source.js";
import type { Candidate, Entry } from "../types.js";
import { LineIndex, LINE_WORK, LIST_WORK, isHeld, mayShareLines, significantLines, type Holder } from "./near-copy.js";
import { workBudget, type WorkBudget } from "../work-budget.js";
import { driftedCopies } from "./drifted-copy.js";

/**
 * The work dedup's comparisons may take for these texts: many times what a tree of ordinary texts takes (a
 * comparison or two per text), far less than comparing every pair of 20,000 rules that share their lines. Past it,
 * the texts not yet compared are sent as they are: a copy sent twice, never a text lost.
 */
export function dedupBudget(candidates: readonly Candidate[], shouldStop?: () => boolean): WorkBudget {
  let chars = 0;
  for (const c of candidates) chars += c.content.length;
  return workBudget(DEDUP_BASE_WORK + 64 * candidates.length + 4 * chars, shouldStop);
}
/**
 * Units are about a character searched (a text looked for inside another costs its length); a line compared or a
 * text listed costs what searching a few dozen characters does (near-copy.ts's LIST_WORK, LINE_WORK).
 */
const DEDUP_BASE_WORK = 1 << 24;

/**
 * One copy of every text: the collector keeps the first registration of a content; a text the agent already
 * has (loaded natively, or injected earlier in the session) leaves its copies out too. Returns the entries.
 * The comparisons between texts spend `budget` (dedupBudget).
 */
export function dedupPhase(
  ordered: Candidate[],
  known: Candidate[],
  realPathOf: Map<string, string>,
  targets: readonly string[],
  budget: WorkBudget = dedupBudget(ordered),
): Entry[] {
  dropImported(ordered, known, realPathOf);
  // Registered in this order, as into the collector: the order phase left one included candidate per source:id.
  const { kept, duplicates } = firstOfEachText(ordered.filter((c) => c.status === "included"));
  for (const { item: dup, keptBy: kept } of duplicates) {
    const sameFile = dup.path !== null && kept.path !== null && realPathOf.get(dup.path) === realPathOf.get(kept.path);
    heldIn(dup, `${sameFile ? "same file as" : "same content as"} ${kept.path ?? kept.id}`, kept);
  }
  // Each text's significant lines and who holds each line, worked out once for both passes (--all sends thousands),
  // for the texts that may share a line with another (or with a text the agent has) only: the rest take part in
  // neither pass (near-copy.ts, mayShareLines), so their lines are never made.
  const sent = kept.filter((c) => c.status !== "duplicate");
  const flagged = mayShareLines([...sent, ...known].map((c) => c.content));
  const lines = new Map<Candidate, readonly string[]>();
  const index = new LineIndex<Candidate>();
  sent.forEach((c, i) => {
    if (!flagged[i]) return;
    lines.set(c, significantLines(c.content));
    index.add(c, lines.get(c)!);
  });
  const linesOf = (c: Candidate) => lines.get(c);
  dropContained(kept, linesOf, index, budget);
  dropNearCopies(kept, known, linesOf, index, budget, () => {
    const nearest = nearestAgentFiles(ordered, targets);
    return (c) => evidenceStrength(c, nearest);
  });
  dropDriftedCopies(kept, known);
  const twins = new Map<string, Candidate>();
  for (const c of known) {
    const text = c.content.trim();
    if (!twins.has(text)) twins.set(text, c);
  }
  const entries: Entry[] = [];
  for (const candidate of kept) {
    if (candidate.status === "duplicate") continue;
    // Looked up only when the agent has something: a lookup hashes the whole text again (--all's megabytes).
    const twin = twins.size > 0 ? twins.get(candidate.content.trim()) : undefined;
    if (twin)
      setStatus(candidate, "duplicate", `same content as ${twin.path ?? twin.id} (${twin.status === "already-injected" ? "already injected" : twin.reason})`);
    else entries.push(toEntry(candidate));
  }
  return entries;
}

/** Shorter texts are too common to call a copy (a heading, "See AGENTS.md"). */
const MIN_CONTAINED = 200;

/**
 * A text found whole inside a longer one that is sent too (a rule an AGENTS.md copies after its own preamble) is
 * sent once, in the longer: the shorter is a duplicate. Each line strictly inside a text (not its first or last,
 * which may be parts of the longer's lines) is a whole line of any text holding it, so only the texts holding its
 * rarest such line are searched: --all's thousands of texts cost a lookup each, not a search of every pair.
 */
function dropContained(kept: Candidate[], linesOf: (c: Candidate) => readonly string[] | undefined, index: LineIndex<Candidate>, budget: WorkBudget): void {
  // Longest first, ties in the order kept (a stable sort's order), without sorting --all's thousands: only the texts
  // whose lines were made can be inside another here, and only they are put in that order.
  const long: Candidate[] = [];
  const order = new Map<Candidate, number>();
  for (const c of kept) {
    if (c.status === "duplicate" || c.content.length < MIN_CONTAINED) continue;
    order.set(c, long.length);
    long.push(c);
  }
  if (long.length < 2) return;
  const before = (a: Candidate, b: Candidate) => b.content.length - a.content.length || order.get(a)! - order.get(b)!;
  let everyByLength: Candidate[] | undefined;
  const smalls = long.filter((c) => linesOf(c) !== undefined).sort(before);
  for (const small of smalls) {
    const smallLines = linesOf(small)!;
    if (!budget.take(LINE_WORK * smallLines.length)) return;
    const text = small.content.trim();
    const probe = text.slice(0, 64);
    const ends = new Set(significantLines(outerLines(text)));
    let rarest: string | undefined;
    let fewest = Infinity;
    for (const line of smallLines) {
      const count = ends.has(line) ? Infinity : index.holdingCount(line);
      if (count < fewest) [rarest, fewest] = [line, count];
      // Its own line: no fewer can hold one.
      if (fewest === 1) break;
    }
    // Held by the small text alone: no longer text holds it whole.
    if (fewest === 1) continue;
    // Texts whose lines are all common (a hostile tree's thousands) have thousands of texts to look in each.
    if (!budget.take(LIST_WORK * (rarest === undefined ? long.length : fewest))) return;
    const among =
      rarest === undefined
        ? (everyByLength ??= [...long].sort(before)).slice(0, everyByLength.indexOf(small))
        : index
            .holding(rarest)
            .filter((c) => order.has(c) && before(c, small) < 0)
            .sort(before);
    for (const large of among) {
      if (large.status === "duplicate" || large.content.length === small.content.length) continue;
      if (!budget.take(LINE_WORK + large.content.length)) return;
      if (!large.content.includes(probe) || !large.content.includes(text)) continue;
      heldIn(small, `its whole text is inside ${large.path ?? large.id}`, large);
      break;
    }
  }
}

/** A text's first and last line: a longer text holding it may hold them inside longer lines of its own. */
function outerLines(text: string): string {
  const first = text.indexOf("\n");
  return first < 0 ? text : `${text.slice(0, first)}\n${text.slice(text.lastIndexOf("\n") + 1)}`;
}

/** What the agent has: a reason for a copy of it (as for an exact twin). */
function hasNote(c: Candidate): string {
  return c.status === "already-injected" ? "already injected" : c.reason;
}

/**
 * Near copies (core/phases/near-copy.ts: nine tenths of the significant lines of one found in the other) are sent
 * once:
 * 1. a text that is mostly something the agent already has (loads itself, or was injected earlier) is left out:
 *    a `.cursor/rules` copy of a `.claude/rules` file is not sent to Claude Code, which loads the original;
 * 2. of two near copies of each other (each holds nine tenths of the other), the stronger evidence is kept
 *    (budget/evidence.ts: priority, explicit match before a guess or a README, the nearer folder), on a tie the
 *    one the selection already puts first;
 * 3. a text mostly inside a longer one that is sent too goes, as a text found whole inside one does (dropContained):
 *    the longer holds what it says and more.
 * Each pass looks only at texts still sent, so a reason names an entry that is sent or that the agent has (an exact
 * copy named earlier may itself have gone as a near copy: explain shows the chain).
 */
function dropNearCopies(
  kept: Candidate[],
  known: Candidate[],
  linesOf: (c: Candidate) => readonly string[] | undefined,
  index: LineIndex<Candidate>,
  budget: WorkBudget,
  strengthOf: () => (c: Candidate) => EvidenceStrength,
): void {
  // A text whose lines are unmade shares none with another, so it is no near copy of one, nor holds one.
  // `order`: the place among the texts still sent. Only texts with enough lines get an object (not --all's thousands).
  const sizable: Array<{ candidate: Candidate; order: number; lines: readonly string[] }> = [];
  let order = 0;
  for (const candidate of kept) {
    if (candidate.status === "duplicate") continue;
    const lines = linesOf(candidate);
    if (lines !== undefined && isHeld(lines.length, lines.length)) sizable.push({ candidate, order, lines });
    order++;
  }
  const had = new LineIndex<Candidate>();
  for (const c of known) had.add(c, significantLines(c.content));
  if (sizable.length < (had.size > 0 ? 1 : 2)) return;
  const gone = (c: Candidate) => c.status === "duplicate";

  if (had.size > 0) {
    for (const p of sizable) {
      const twin = had.holders(p.lines, undefined, undefined, budget)[0];
      if (twin) setStatus(p.candidate, "duplicate", `${heldWording(p.candidate, twin.shared, p.lines.length, twin)} (${hasNote(twin.item)})`);
    }
  }

  if (sizable.filter((p) => !gone(p.candidate)).length < 2) return;

  const held = new Map(sizable.map((p) => [p.candidate, index.holders(p.lines, p.candidate, gone, budget)]));
  if (![...held.values()].some((list) => list.length > 0)) return;
  // Only texts that hold or are held by another take part: the rest keep their status whatever their rank, and the
  // ranks of those that take part keep their order among themselves (evidence costs a look at every agent file).
  const involved = new Set<Candidate>();
  for (const [candidate, list] of held) {
    if (list.length === 0) continue;
    involved.add(candidate);
    for (const h of list) involved.add(h.item);
  }
  const strength = strengthOf();
  const ranked = sizable
    .filter((p) => involved.has(p.candidate))
    .map((p) => ({ candidate: p.candidate, order: p.order, lines: p.lines, strength: strength(p.candidate) }))
    .sort((a, b) => compareStrength(b.strength, a.strength) || a.order - b.order);
  const rankOf = new Map(ranked.map((p, i) => [p.candidate, i]));

  // Near copies of each other: the first in rank stays, each later copy of one that stays goes.
  for (const p of ranked) {
    if (gone(p.candidate)) continue;
    const n = p.lines.length;
    const copy = held
      .get(p.candidate)!
      .filter((h) => !gone(h.item) && rankOf.get(h.item)! < rankOf.get(p.candidate)! && isHeld(h.shared, h.lines))
      .sort((a, b) => rankOf.get(a.item)! - rankOf.get(b.item)!)[0];
    if (copy) heldIn(p.candidate, heldWording(p.candidate, copy.shared, n, copy), copy.item);
  }

  // Mostly inside a longer text: longest first, so that the longer one's own fate is settled when it is named.
  const bySize = ranked
    .filter((p) => !gone(p.candidate))
    .sort((a, b) => b.lines.length - a.lines.length || rankOf.get(a.candidate)! - rankOf.get(b.candidate)!);
  for (const p of bySize) {
    const n = p.lines.length;
    const inside = held
      .get(p.candidate)!
      .filter((h) => !gone(h.item) && h.lines > n)
      .sort((a, b) => rankOf.get(a.item)! - rankOf.get(b.item)!)[0];
    if (inside) heldIn(p.candidate, heldWording(p.candidate, inside.shared, n, inside), inside.item);
  }
}

/**
 * A rule kept for two agents whose copies drifted apart by a paragraph (phases/drifted-copy.ts) is sent once: the
 * copy the agent loads itself is the one it has (Claude Code's `.claude/rules` file, not the `.cursor/rules` one),
 * else the longer copy is sent and the other named as its near copy (doctor reports the drift). A copy holding what
 * the session gave of the other (even cut) is not sent after it.
 */
function dropDriftedCopies(kept: Candidate[], known: Candidate[]): void {
  for (const { copy, kept: by, shared, lines, given } of driftedCopies(
    kept.filter((c) => c.status !== "duplicate"),
    known,
  )) {
    const of = by.path ?? by.id;
    const reason = given
      ? `another agent's copy of ${of}, holding ${shared} of the ${lines} lines given of it`
      : `a near copy of ${of} that drifted: ${shared} of its ${lines} lines the same`;
    if (!given) copy.nearCopyOf = { of, shared, lines };
    if (known.includes(by)) setStatus(copy, "duplicate", `${reason} (${hasNote(by)})`);
    else heldIn(copy, reason, by);
  }
}

/** A duplicate of a text that is sent: the budget names it when that text gives way (Candidate.heldBy). */
export function heldIn(candidate: Candidate, reason: string, holder: Candidate): void {
  setStatus(candidate, "duplicate", reason);
  candidate.heldBy = keyOf(holder);
}

/**
 * Copies of each other are "near copies" (noted on `copy` for doctor's drift check); a short text inside a longer one
 * is said to be inside it.
 */
function heldWording(copy: Candidate, shared: number, of: number, by: Holder<Candidate>): string {
  const where = by.item.path ?? by.item.id;
  if (!isHeld(shared, by.lines)) return `${shared} of its ${of} lines are in ${where}`;
  copy.nearCopyOf = { of: where, shared, lines: of };
  return `a near copy of ${where}: ${shared} of ${of} lines the same`;
}

/**
 * A file an included agent file imports is already in that entry: its own entry is a duplicate. So is a file
 * that something the agent already has imports.
 */
function dropImported(ordered: Candidate[], known: Candidate[], realPathOf: Map<string, string>): void {
  const real = (path: string) => realPathOf.get(path) ?? path;
  const importers = new Map<string, { by: Candidate; known: boolean }>();
  for (const by of ordered) {
    // An unfolded importer sends its imported files as entries of their own (phases/unfold.ts).
    if (by.status !== "included" || !by.imports || by.unfolded === true) continue;
    for (const path of flattenImports(by.imports)) if (!importers.has(real(path))) importers.set(real(path), { by, known: false });
  }
  for (const by of known) for (const path of flattenImports(by.imports ?? [])) if (!importers.has(real(path))) importers.set(real(path), { by, known: true });
  for (const candidate of ordered) {
    if (candidate.status !== "included" || candidate.path === null) continue;
    const hit = importers.get(real(candidate.path));
    if (hit === undefined || hit.by === candidate) continue;
    const note = hit.known ? ` (${hit.by.status === "already-injected" ? "already injected" : hit.by.reason})` : "";
    setStatus(candidate, "duplicate", `imported by ${hit.by.path ?? hit.by.id}${note}`);
    if (!hit.known) candidate.heldBy = keyOf(hit.by);
  }
}

export function toEntry(c: Candidate): Entry {
  const entry: Entry = {
    source: c.source,
    id: c.id,
    priority: c.priority,
    kind: c.kind,
    path: c.path,
    tokens: c.tokens,
    content: c.content,
    truncated: c.truncated,
    globs: c.globs,
  };
  // An unfolded importer's text holds none of its imports: each is an entry of its own.
  if (c.imports !== undefined && c.unfolded !== true) entry.imports = c.imports;
  return entry;
}
