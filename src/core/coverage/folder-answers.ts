/**
 * The coverage model's third phase, run for each folder: which candidates apply for the folder's representative
 * file (and why), and each agent's own answer for each of them (whether it loads it by itself there). A folder whose
 * candidates and answers are an earlier folder's has that folder's row: `earlierRow` finds it.
 */
import { loadsThroughAnyPath, type AgentProfile, type LoadedContext } from "../agents/profile.js";
import type { Finding } from "../doctor/finding.js";
import { INDEX_EXPLAINED } from "../render/tiers.js";
import { utf8Bytes } from "../tokens.js";
import type { Candidate } from "../types.js";
import { keyOf, type CoverageCandidates } from "./candidates.js";
import type { GlobMatches } from "./glob-matches.js";
import { clear, fresh, freshObjects } from "./lists.js";
import { REPRESENTATIVE } from "./model-types.js";

/** An answer's entry not numbered yet. */
export const UNNUMBERED = -2;

// The objects the folder loop keeps (answers, entries, cells, rows) are made by constructors, not literals: a literal
// has an allocation site whose "old space or new" decision V8 revisits at a garbage collection, and each change threw
// away every compiled function that made such objects (agentCells, askAgents, rowHere were compiled 4 times over).

/** An agent's own answer for an applied candidate, and its entry (-1: none; UNNUMBERED: not numbered yet). */
export class Answer {
  reason: string | null;
  id: number;
  /** True when the loader did not look at the folder's file: the same answer in every folder. */
  fixed = false;
  constructor(reason: string | null, id: number) {
    this.reason = reason;
    this.id = id;
  }
}

/** A candidate as it applies somewhere, for one reason: made once and met again in every folder it applies to. */
export class Applied {
  c: Candidate;
  key: string;
  full: boolean;
  reason: string;
  /** Its text's group (core/coverage/copies.ts). */
  group: number;
  /** Its place among the candidates that may apply (rows of the state table). */
  index: number;
  /** Its order in path order, to sort file lists with numbers. */
  pathRank: number;
  findings: Finding[] | undefined;
  /**
   * Per agent, the last answer of the agent's own loader and its entry; `fixed` when the loader did not look at the
   * folder's file (then the answer is the same in every folder: the rest of its context is the tree's).
   */
  own: Array<Answer | undefined> = fresh();
  /** Per agent, doctor's findings on it that concern that agent (numbered). */
  concerning: Array<number[] | undefined> = fresh();
  /** Its entry as ctxinject adds or offers it (-1 until first needed). */
  addId = -1;
  /** Its number among the Applied made, for a folder's list to be known by a hash. */
  serial: number;
  constructor(
    c: Candidate,
    key: string,
    full: boolean,
    reason: string,
    group: number,
    index: number,
    pathRank: number,
    findings: Finding[] | undefined,
    serial: number,
  ) {
    this.c = c;
    this.key = key;
    this.full = full;
    this.reason = reason;
    this.group = group;
    this.index = index;
    this.pathRank = pathRank;
    this.findings = findings;
    this.serial = serial;
  }
}

/**
 * A row made, with the candidates and answers it was made from (kept by a hash of its folder's candidates). Of the
 * answers only those that read the folder's file are kept (`varying`: their places in the folder's answers): an
 * answer that did not is its candidate's in every folder, and the candidates are compared first (every answer, kept
 * per row, was ~7 MB of a 100k-file tree's model that each young collection copied).
 */
class MadeRow {
  applied: Applied[];
  varying: number[];
  values: Array<string | null>;
  indexes: number[];
  constructor(applied: Applied[], varying: number[], values: Array<string | null>, indexes: number[]) {
    this.applied = applied;
    this.varying = varying;
    this.values = values;
    this.indexes = indexes;
  }
}

export class FolderAnswers {
  /** The candidates that apply in the folder at hand. */
  readonly applied: Applied[] = [];
  /** Per agent x applied candidate (agent-major), the agent's own answer in the folder at hand. */
  readonly answers: Array<string | null> = [];
  readonly agentCount: number;
  private serials = 0;
  private readonly made = new Map<Candidate, Applied>();
  private readonly madeFor = new Map<Candidate, Map<string, Applied>>();
  // Read once into a plain list: each profile is an object of its own shape, and reading them in the folder loop made
  // V8 throw away its compiled loop for each new shape met.
  private readonly loaders: Array<AgentProfile["loadsItself"]>;
  // The agents' loaders are pure functions of a candidate and this context, and only `reads` (the folder's file)
  // changes from folder to folder: an answer given without reading it holds for every folder.
  private readsNow: readonly string[] = [];
  private touched = false;
  private readonly context: LoadedContext;
  private readonly rowsByKey = new Map<number, MadeRow[]>();

  constructor(
    private readonly candidates: CoverageCandidates,
    private readonly matches: GlobMatches,
    private readonly anchorOf: (path: string) => string,
    private readonly plainReasons: ReadonlyMap<string, string>,
    profiles: readonly AgentProfile[],
  ) {
    this.loaders = profiles.map((p) => p.loadsItself);
    this.agentCount = profiles.length;
    const self = this;
    const byPath = candidates.byPath;
    this.context = {
      present: candidates.present,
      workingFolder: "",
      get reads() {
        self.touched = true;
        return self.readsNow;
      },
      bytesOf: (path: string) => utf8Bytes(byPath.get(path)?.content ?? ""),
    };
  }

  /** Which of `scoped` apply for a folder judged by `code[at]` (-1: a folder of folders), and why: `applied`. */
  collect(scoped: readonly Candidate[], at: number): number {
    const applied = this.applied;
    clear(applied);
    for (let i = 0; i < scoped.length; i++) {
      const a = this.applies(scoped[i]!, at);
      if (a !== null) applied.push(a);
    }
    return applied.length;
  }

  /** Whether, and why, a candidate applies for a folder judged by `code[at]` (-1: a folder of folders; the rules' anchors are checked first). */
  private applies(c: Candidate, at: number): Applied | null {
    if (c.path === null) return this.once(c, true, () => c.reason);
    switch (c.kind) {
      case "directory":
        return this.once(c, true, () => (this.anchorOf(c.path!) === "" ? "project root" : `on the path to ${REPRESENTATIVE}`));
      case "always":
        return this.once(c, true, () => this.plain(c, "always"));
      case "auto": {
        // A folder of folders has no file for a glob to match: its rules show where the files are.
        if (at < 0) return null;
        const pattern = this.matches.matchOf(c, at);
        if (pattern === null) return null;
        let byPattern = this.madeFor.get(c);
        if (byPattern === undefined) this.madeFor.set(c, (byPattern = new Map()));
        let a = byPattern.get(pattern);
        if (a === undefined) byPattern.set(pattern, (a = this.make(c, true, `glob ${pattern} matches ${REPRESENTATIVE}`)));
        return a;
      }
      case "agent-requested":
        // In explain's words for where it went (core/render/tiers.ts); its score depends on the prompt, and there is none.
        return this.once(c, false, () => `description only: no prompt to score it against; ${INDEX_EXPLAINED}`);
      default:
        return null;
    }
  }

  private plain(c: Candidate, fallback: string): string {
    return this.plainReasons.get(`${c.source}:${c.id}`) ?? fallback;
  }

  private make(c: Candidate, full: boolean, reason: string): Applied {
    const key = keyOf(c);
    const { copies, indexOf, pathRank, findingsOf } = this.candidates;
    return new Applied(c, key, full, reason, copies.groupOf.get(key)!, indexOf.get(c)!, pathRank.get(key)!, findingsOf.get(key), this.serials++);
  }

  private once(c: Candidate, full: boolean, reason: () => string): Applied {
    let a = this.made.get(c);
    if (a === undefined) this.made.set(c, (a = this.make(c, full, reason())));
    return a;
  }

  /** The agents' own answers for the folder's `count` applied candidates, the folder judged by `file` (`answers`). */
  ask(count: number, file: string): void {
    this.readsNow = [file];
    const { applied, answers, agentCount, context } = this;
    // The agents' own answers here, each loader asked again only where its last answer read the folder's file.
    if (answers.length < count * agentCount) answers.length = count * agentCount;
    for (let agent = 0; agent < agentCount; agent++) {
      const loadsItself = this.loaders[agent]!;
      for (let at = 0; at < count; at++) {
        const a = applied[at]!;
        let cached = a.own[agent];
        if (cached === undefined || !cached.fixed) {
          this.touched = false;
          const reason = loadsThroughAnyPath(loadsItself, a.c, context);
          // Its entry is numbered where the cell lists it (below), so entries keep the order cells meet them in.
          if (cached === undefined || cached.reason !== reason) cached = new Answer(reason, reason === null ? -1 : UNNUMBERED);
          cached.fixed = !this.touched;
          a.own[agent] = cached;
        }
        answers[agent * count + at] = cached.reason;
      }
    }
  }

  /** A hash of the folder's applied candidates, for `earlierRow` and `remember`. */
  rowKey(): number {
    const list = this.applied;
    let h = 0x811c9dc5;
    for (let i = 0; i < list.length; i++) h = Math.imul(h ^ list[i]!.serial, 0x01000193);
    return (h ^ list.length) & 0x3fffffff;
  }

  /** The row (cell per agent) of an earlier folder with these candidates and answers, if there was one. */
  earlierRow(key: number): number[] | undefined {
    return this.rowsByKey.get(key)?.find(this.sameRow)?.indexes;
  }

  private readonly sameRow = (r: MadeRow): boolean => {
    const { applied, answers } = this;
    if (r.applied.length !== applied.length) return false;
    for (let i = 0; i < applied.length; i++) if (r.applied[i] !== applied[i]) return false;
    // The same candidates: an answer fixed when the row was made is still theirs (a fixed answer is never asked again).
    for (let k = 0; k < r.varying.length; k++) if (r.values[k] !== answers[r.varying[k]!]) return false;
    return true;
  };

  /** Keeps the folder's row for folders alike: its answers that read the folder's file, their places and values. */
  remember(key: number, count: number, indexes: number[]): void {
    const { applied, answers, agentCount } = this;
    const varying: number[] = fresh();
    const values: Array<string | null> = freshObjects();
    for (let agent = 0; agent < agentCount; agent++)
      for (let at = 0; at < count; at++)
        if (!applied[at]!.own[agent]!.fixed) {
          varying.push(agent * count + at);
          values.push(answers[agent * count + at] as string | null);
        }
    let same = this.rowsByKey.get(key);
    if (same === undefined) this.rowsByKey.set(key, (same = freshObjects()));
    same.push(new MadeRow(applied.slice(), varying, values, indexes));
  }
}
