/**
 * The coverage model's fourth phase, run for each folder after its answers: each agent's cell there (what it loads,
 * what ctxinject adds, what is offered, the findings), found among the cells made or made, and the folder's row of
 * cells; on the way, how each agent gets each candidate at best (the state table the rule rows read) and which file
 * brings an agent a rule's text through a copy.
 */
import type { Finding } from "../doctor/finding.js";
import { dirOf } from "../rel-path.js";
import type { Candidate } from "../types.js";
import type { CoverageCandidates } from "./candidates.js";
import type { TextCopies } from "./copies.js";
import { UNNUMBERED, type Applied, type FolderAnswers } from "./folder-answers.js";
import type { Folder } from "./folders.js";
import { clear, copyOf, fresh, hashIds, NO_IDS, pushAll, sameIds, uniqueSorted } from "./lists.js";
import type { CellFinding, CoverageCell, RuleState } from "./model-types.js";
import type { Numbering } from "./numbering.js";

export const STATES: readonly RuleState[] = ["never", "offers", "copy", "adds", "loads"];
export const NEVER = 0;
const OFFERS = 1;
const COPY = 2;
const ADDS = 3;
const LOADS = 4;

const NO_FINDINGS: readonly CellFinding[] = Object.freeze([]);

class Cell implements CoverageCell {
  tokens: number;
  loads: number[];
  adds: number[];
  offers: number[];
  findings: CellFinding[];
  constructor(tokens: number, loads: number[], adds: number[], offers: number[], findings: CellFinding[]) {
    this.tokens = tokens;
    this.loads = loads;
    this.adds = adds;
    this.offers = offers;
    this.findings = findings;
  }
}

/** One agent's cell in the folder at hand, in lists reused from folder to folder (copied only into a new cell). */
interface Scratch {
  loads: number[];
  adds: number[];
  offers: number[];
  findings: number[];
  tokens: number;
  missed: Applied[];
}

/** The agents as the cells see them: names, caps on what a hook adds, whether ctxinject injects for them. */
interface CellAgents {
  names: readonly string[];
  /** Per agent, its cap on what a hook adds in characters (-1: none). */
  caps: readonly number[];
  /** Per agent, whether ctxinject has a host integration that injects for it. */
  hooked: readonly boolean[];
  /** Per agent, whether its own loader expands `@imports` (otherwise it reads an agent file as written). */
  expands: readonly boolean[];
}

export class CellTable {
  readonly cells: CoverageCell[] = [];
  /** Each folder's cell per agent, in the agents' order (collapsed folders too). */
  readonly every = new Map<string, readonly number[]>();
  /** How each agent gets each candidate at best (a STATES index), row by row: a table, not a map per file. */
  readonly state: Uint8Array;
  /** Per file, per agent: the file that brings the agent its text through a copy (the first folder's). */
  readonly copiedBy = new Map<string, Record<string, string>>();
  private readonly names: readonly string[];
  private readonly caps: readonly number[];
  private readonly hooked: readonly boolean[];
  private readonly expands: readonly boolean[];
  private readonly agentCount: number;
  private readonly importersOf: ReadonlyMap<string, readonly Candidate[]>;
  private readonly indexOf: ReadonlyMap<Candidate, number>;
  // Per agent, per candidate: the folder's number where the agent has its text with its imports expanded (it loads
  // it expanding them, or ctxinject adds it, expanded as select makes every entry).
  private readonly expandedMark: Int32Array[];
  private readonly copies: TextCopies;
  private readonly findingsOf: ReadonlyMap<string, Finding[]>;
  private readonly scratch: Scratch[];
  /** Each cell's findings as numbers, to compare a new cell's with. */
  private readonly cellFindings: number[][] = [];
  /** A folder's row (cell per agent), kept for its subfolders: most cells are the same as their parent's. */
  private readonly rowOf = new Map<string, readonly number[]>();
  // Cells by a hash of their numbers (a separator between the lists), each compared in full on a hit: the first
  // cell of a hash, then each cell's next of the same hash (-1: none), no list per hash.
  private readonly cellIndex = new Map<number, number>();
  private readonly nextSameHash: number[] = [];
  // Cells' lists of the same numbers are one list (read only): a 100k-file tree's 58k cells hold 141k non-empty
  // lists of only 37k different ones, and each list kept was copied by the young collections until promoted.
  private readonly listOf = new Map<number, number[]>();
  // Per agent, per text group: whether it has the text here (any way, or in full) and the first file that brings it
  // in full, marked with the folder's number instead of cleared (no set or map per folder and agent).
  private readonly hadMark: Int32Array[];
  private readonly fullMark: Int32Array[];
  private readonly fullFile: string[][];
  // Scratch tables reused from folder to folder (a typed array per folder was a good part of the garbage).
  private seenScratch = new Uint8Array(256);
  private countScratch = new Uint8Array(64);
  /** Per applied position: how many agents load or offer it by themselves (not through ctxinject's hook). */
  private nativeScratch = new Uint8Array(64);
  private readonly left: number[] = [];
  private readonly unseen: number[] = [];
  private readonly nobody: Applied[] = [];
  private readonly deadOf = new Map<Candidate, Array<number[] | undefined>>();
  private readonly byPathRank: (x: number, y: number) => number;

  constructor(
    private readonly numbering: Numbering,
    candidates: CoverageCandidates,
    agents: CellAgents,
    private readonly folderAnswers: FolderAnswers,
  ) {
    this.names = agents.names;
    this.caps = agents.caps;
    this.hooked = agents.hooked;
    this.expands = agents.expands;
    this.agentCount = agents.names.length;
    this.importersOf = candidates.importersOf;
    this.indexOf = candidates.indexOf;
    this.copies = candidates.copies;
    this.findingsOf = candidates.findingsOf;
    this.state = new Uint8Array(candidates.order.size * this.agentCount);
    this.scratch = agents.names.map(() => ({ loads: [], adds: [], offers: [], findings: [], tokens: 0, missed: [] }));
    const groupCount = this.copies.holders.length;
    this.hadMark = agents.names.map(() => new Int32Array(groupCount).fill(-1));
    this.fullMark = agents.names.map(() => new Int32Array(groupCount).fill(-1));
    this.fullFile = agents.names.map(() => new Array<string>(groupCount));
    this.expandedMark = agents.names.map(() => new Int32Array(candidates.order.size).fill(-1));
    const applied = folderAnswers.applied;
    this.byPathRank = (x, y) => applied[x]!.pathRank - applied[y]!.pathRank;
  }

  /** Folder `n` has the row of an earlier folder alike (the same numbers, so the same objects: read only from here on). */
  sameRowAs(folder: Folder, indexes: readonly number[]): void {
    if (folder.children.length > 0) this.rowOf.set(folder.path, indexes);
    this.every.set(folder.path, indexes);
  }

  /**
   * Folder `n`'s row, from its `count` applied candidates and the agents' answers (FolderAnswers): each agent's cell,
   * what some agents see there and others never do, and the row kept for folders alike (`key` ≥ 0).
   */
  row(n: number, folder: Folder, own: Candidate[] | undefined, count: number, key: number): void {
    const agentCount = this.agentCount;
    // Which agents see each applied candidate here: applied position x agent.
    if (this.seenScratch.length < count * agentCount) this.seenScratch = new Uint8Array(count * agentCount * 2);
    if (this.countScratch.length < count) {
      this.countScratch = new Uint8Array(count * 2);
      this.nativeScratch = new Uint8Array(count * 2);
    }
    const seen = this.seenScratch.fill(0, 0, count * agentCount);
    const seenCount = this.countScratch.fill(0, 0, count);
    const native = this.nativeScratch.fill(0, 0, count);
    const capped = this.agentCells(n, count, own, folder, seen, seenCount, native);
    this.notSeen(n, count, seen, seenCount, native);
    this.rowHere(folder, key, capped, count);
  }

  private note(a: Applied, agent: number, got: number): void {
    const at = a.index * this.agentCount + agent;
    if (got > this.state[at]!) this.state[at] = got;
  }

  private isCell(index: number, s: Scratch): boolean {
    const cell = this.cells[index]!;
    return sameIds(cell.loads, s.loads) && sameIds(cell.adds, s.adds) && sameIds(cell.offers, s.offers) && sameIds(this.cellFindings[index]!, s.findings);
  }

  private shared(ids: number[]): number[] {
    if (ids.length === 0) return NO_IDS as number[];
    const hash = hashIds(0, ids);
    const known = this.listOf.get(hash);
    if (known !== undefined && sameIds(known, ids)) return known;
    const copy = ids.slice();
    // A hash already taken by other numbers keeps its list (this one is not shared).
    if (known === undefined) this.listOf.set(hash, copy);
    return copy;
  }

  /** The file that brings the agent `group`'s text in full in folder `n` (itself, or a text holding it), if any. */
  private copyIn(agent: number, n: number, group: number): string | undefined {
    const mark = this.fullMark[agent]!;
    if (mark[group] === n) return this.fullFile[agent]![group];
    const holders = this.copies.holders[group]!;
    for (let i = 0; i < holders.length; i++) if (mark[holders[i]!] === n) return this.fullFile[agent]![holders[i]!];
    return undefined;
  }

  /**
   * The agent file that brings the agent `a`'s text in folder `n` through its `@imports`, expanded (select's dedup:
   * "imported by"), if any: the importer itself applies there, and the agent has it with its imports.
   */
  private importedIn(agent: number, n: number, a: Applied): string | undefined {
    if (this.importersOf.size === 0 || a.c.path === null) return undefined;
    const importers = this.importersOf.get(a.c.path);
    if (importers === undefined) return undefined;
    const mark = this.expandedMark[agent]!;
    for (let i = 0; i < importers.length; i++) if (mark[this.indexOf.get(importers[i]!)!] === n) return importers[i]!.path ?? undefined;
    return undefined;
  }

  /** Doctor's dead-glob findings on a rule that concern an agent (numbered), worked out once. */
  private deadGlobs(c: Candidate, agent: number): number[] {
    let byAgent = this.deadOf.get(c);
    if (byAgent === undefined) this.deadOf.set(c, (byAgent = fresh()));
    let ids = byAgent[agent];
    if (ids === undefined) byAgent[agent] = ids = this.idsOf(this.findingsOf.get(c.path!), (f) => f.kind === "dead-glob" && concerns(f, this.names[agent]!));
    return ids;
  }

  // Each list made by pushing into a literal: lists of one element kind (`filter().map()` gave the empty ones
  // another), so the loop reading them keeps one compiled form (a "wrong map" deopt recompiled agentCells).
  private idsOf(findings: readonly Finding[] | undefined, keep: (f: Finding) => boolean): number[] {
    const ids: number[] = fresh();
    if (findings !== undefined) for (let i = 0; i < findings.length; i++) if (keep(findings[i]!)) ids.push(this.numbering.doctorId(findings[i]!));
    return ids;
  }

  private concerningOf(a: Applied, agent: number): number[] {
    let ids = a.concerning[agent];
    if (ids === undefined) a.concerning[agent] = ids = this.idsOf(a.findings, (f) => concerns(f, this.names[agent]!));
    return ids;
  }

  // The loop's parts are functions of their own, each compiled by itself: one loop body holding them all took V8
  // ~0.25 s of CPU to compile, again after each deopt.
  /** Each agent's cell in folder `n` (in `scratch`); true when a cap's finding names the folder. */
  private agentCells(
    n: number,
    count: number,
    own: Candidate[] | undefined,
    folder: Folder,
    seen: Uint8Array,
    seenCount: Uint8Array,
    native: Uint8Array,
  ): boolean {
    const { agentCount, names, caps, hooked, numbering, left } = this;
    const applied = this.folderAnswers.applied;
    let capped = false;
    for (let agent = 0; agent < agentCount; agent++) {
      const name = names[agent]!;
      const cap = caps[agent]!;
      const s = this.scratch[agent]!;
      const { loads, adds, offers, findings } = s;
      clear(loads);
      clear(adds);
      clear(offers);
      clear(findings);
      clear(s.missed);
      let tokens = 0;
      const had = this.hadMark[agent]!;
      const full = this.fullMark[agent]!;
      const fileOf = this.fullFile[agent]!;
      const expands = this.expands[agent]!;
      const expanded = this.expandedMark[agent]!;
      clear(left);
      for (let at = 0; at < count; at++) {
        const a = applied[at]!;
        const cached = a.own[agent]!;
        if (cached.reason === null) {
          left.push(at);
          continue;
        }
        had[a.group] = n;
        // An agent that leaves `@imports` as they are reads the file as written (agents/view.ts builds it so).
        const asWritten = a.c.asWritten !== undefined && !expands ? a.c.asWritten : undefined;
        if (cached.id === UNNUMBERED) cached.id = numbering.itemId(a.key, asWritten?.tokens ?? a.c.tokens, cached.reason, a.full ? undefined : name);
        if (a.full) {
          loads.push(cached.id);
          tokens += asWritten?.tokens ?? a.c.tokens;
          if (a.c.imports !== undefined && asWritten === undefined) expanded[a.index] = n;
          if (full[a.group] !== n) {
            full[a.group] = n;
            fileOf[a.group] = a.key;
          }
          this.note(a, agent, LOADS);
        } else {
          offers.push(cached.id);
          this.note(a, agent, OFFERS);
        }
        seen[at * agentCount + agent] = 1;
        seenCount[at]!++;
        native[at]!++;
        if (a.findings !== undefined) pushAll(findings, this.concerningOf(a, agent));
      }
      // What the hook injects: the rest, one copy of each text (a copy of what the agent has, or a text mostly
      // inside it, is no news to it: dedup leaves those out). Agent files that import others go first: what they
      // import is in their entry, expanded, and dedup leaves the imported files out ("imported by").
      let addedChars = 0;
      if (hooked[agent]) {
        for (let pass = 0; pass < 2; pass++) {
          for (let i = 0; i < left.length; i++) {
            const at = left[i]!;
            const a = applied[at]!;
            if ((a.c.imports !== undefined) !== (pass === 0)) continue;
            if (had[a.group] === n || this.copyIn(agent, n, a.group) !== undefined || this.importedIn(agent, n, a) !== undefined) continue;
            had[a.group] = n;
            if (a.addId < 0) a.addId = numbering.itemId(a.key, a.c.tokens, a.reason, a.full ? undefined : "ctxinject");
            if (a.full) {
              adds.push(a.addId);
              tokens += a.c.tokens;
              addedChars += a.c.content.length;
              if (full[a.group] !== n) {
                full[a.group] = n;
                fileOf[a.group] = a.key;
              }
              if (a.c.imports !== undefined) expanded[a.index] = n;
              this.note(a, agent, ADDS);
            } else {
              offers.push(a.addId);
              this.note(a, agent, OFFERS);
            }
            seen[at * agentCount + agent] = 1;
            seenCount[at]!++;
            if (a.findings !== undefined) pushAll(findings, this.concerningOf(a, agent));
          }
        }
      }
      // A rule of this folder that applies nowhere here (a dead glob) still has its findings shown where it lives.
      if (own !== undefined)
        for (let o = 0; o < own.length; o++) {
          const c = own[o]!;
          if (c.path === null) continue;
          const dead = this.deadGlobs(c, agent);
          if (dead.length === 0) continue;
          const at = applied.findIndex((a) => a.c === c);
          if (at >= 0 && seen[at * agentCount + agent] === 1) continue;
          pushAll(findings, dead);
        }
      if (cap >= 0 && addedChars > cap) {
        // Its finding names the folder: this row is no other folder's.
        capped = true;
        findings.push(
          numbering.findingId({
            severity: "warning",
            kind: "over-host-cap",
            file: folder.path === "" ? "." : folder.path,
            message: `ctxinject adds about ${addedChars} characters here, over ${name}'s cap of ${cap}: the weakest are trimmed or listed in the index`,
          }),
        );
      }
      s.tokens = tokens;
    }
    return capped;
  }

  /** What some agents see here and others never do (`missed`, `nobody`), or see through a copy. */
  private notSeen(n: number, count: number, seen: Uint8Array, seenCount: Uint8Array, native: Uint8Array): void {
    const { agentCount, names, nobody, unseen, hooked } = this;
    const applied = this.folderAnswers.applied;
    // What one agent gets and another never sees here, or what none of them sees: one finding per cell naming the
    // files, in path order. An agent that gets the same text (or nearly) through another file has seen it.
    clear(nobody);
    clear(unseen);
    for (let at = 0; at < count; at++) if (seenCount[at]! < agentCount && applied[at]!.c.path !== null) unseen.push(at);
    if (unseen.length > 1) unseen.sort(this.byPathRank);
    for (let u = 0; u < unseen.length; u++) {
      const at = unseen[u]!;
      const a = applied[at]!;
      let missing = 0;
      for (let agent = 0; agent < agentCount; agent++) {
        if (seen[at * agentCount + agent] === 1) continue;
        const via = this.copyIn(agent, n, a.group) ?? this.importedIn(agent, n, a);
        if (via === undefined) {
          missing++;
          continue;
        }
        // Marked as seen (by its copy), so the lists below leave it out.
        seen[at * agentCount + agent] = 2;
        this.note(a, agent, COPY);
        let byAgent = this.copiedBy.get(a.key);
        if (byAgent === undefined) this.copiedBy.set(a.key, (byAgent = {}));
        byAgent[names[agent]!] ??= via;
      }
      if (missing === agentCount) nobody.push(a);
      // A file only ctxinject's hook brings (a README: no agent loads it by itself) is no news to an agent without
      // the hook: it has no way to get it, and a warning in each of its cells would say only that.
      else if (missing > 0)
        for (let agent = 0; agent < agentCount; agent++)
          if (seen[at * agentCount + agent] === 0 && (hooked[agent] || native[at]! > 0)) this.scratch[agent]!.missed.push(a);
    }
  }

  /**
   * The index of the cell `s` describes, made if there is none yet. A function of its own, not a branch of rowHere:
   * V8 compiled rowHere again each time a rare branch of it first ran (twice, 140-180 ms on the large tree).
   */
  private cellFor(s: Scratch): number {
    const hash = hashIds(hashIds(hashIds(hashIds(0, s.loads), s.adds), s.offers), s.findings);
    const first = this.cellIndex.get(hash);
    let found = first ?? -1;
    while (found >= 0 && !this.isCell(found, s)) found = this.nextSameHash[found]!;
    if (found >= 0) return found;
    const index = this.cells.length;
    const findingList = this.numbering.findings;
    // Empty lists (most adds, offers and findings) are one shared frozen list: no array per cell.
    this.cells.push(
      new Cell(
        s.tokens,
        this.shared(s.loads),
        this.shared(s.adds),
        this.shared(s.offers),
        s.findings.length === 0 ? (NO_FINDINGS as CellFinding[]) : s.findings.map((id) => findingList[id]!),
      ),
    );
    this.cellFindings.push(copyOf(s.findings));
    // The new cell goes first in its hash's chain.
    this.nextSameHash.push(first ?? -1);
    this.cellIndex.set(hash, index);
    return index;
  }

  /** The folder's row: each agent's cell found among the cells made, or made; kept for folders alike. */
  private rowHere(folder: Folder, key: number, capped: boolean, count: number): void {
    const { agentCount, names, numbering, nobody } = this;
    const parent = folder.path === "" ? undefined : this.rowOf.get(dirOf(folder.path));
    const indexes: number[] = fresh();
    // What no agent sees is one finding, the same in every cell of the row.
    const unread = nobody.length > 0 ? numbering.summaryId(-1, nobody, "") : -1;
    for (let agent = 0; agent < agentCount; agent++) {
      const s = this.scratch[agent]!;
      if (s.missed.length > 0) s.findings.push(numbering.summaryId(agent, s.missed, names[agent]!));
      if (unread >= 0) s.findings.push(unread);
      if (s.findings.length > 1) uniqueSorted(s.findings, numbering.byFinding);
      // Most cells are their parent folder's: compared as numbers before any hash is made.
      const was = parent?.[agent];
      let index: number;
      if (was !== undefined && this.isCell(was, s)) index = was;
      else index = this.cellFor(s);
      indexes.push(index);
    }
    if (folder.children.length > 0) this.rowOf.set(folder.path, indexes);
    this.every.set(folder.path, indexes);
    if (key >= 0 && !capped) this.folderAnswers.remember(key, count, indexes);
  }
}

/** Whether a doctor finding concerns the agent (its tags name it, or ctxinject). */
function concerns(f: Finding, agent: string): boolean {
  const tags = f.agent.split(", ");
  return tags.includes(agent) || tags.includes("ctxinject");
}
