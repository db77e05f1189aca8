/**
 * `ctxinject coverage`, the pure part: for every folder and every agent, what the agent loads by itself there, what
 * ctxinject adds for it (with the host integration installed), the tokens, and what goes wrong there. It reads the
 * selection `build --all` makes (kinds, globs, duplicates) and asks each agent's profile (core/agents, the one model
 * the hooks and `explain --as` use); it decides nothing about a rule that select did not decide first.
 */
import { loadsThroughAnyPath, type AgentProfile, type LoadedContext } from "../agents/profile.js";
import type { Finding } from "../doctor/finding.js";
import type { LinearEngine } from "../linear-regexp.js";
import { compileGlobs, normalizePattern, type GlobMatcher } from "../parse/globs.js";
import { compareText, dirOf, firstFrom } from "../rel-path.js";
import { INDEX_EXPLAINED } from "../render/tiers.js";
import type { RunMemo } from "../run-memo.js";
import { utf8Bytes } from "../tokens.js";
import type { Candidate } from "../types.js";
import { textCopies } from "./copies.js";
import { globBounds } from "./glob-bounds.js";
import { codeFiles, eachFolder, folderTree, type Folder } from "./folders.js";

/** Stands for the folder's representative file in reasons: one cell serves every folder whose files it fits. */
export const REPRESENTATIVE = "{representative}";

export interface CoverageInput {
  /** The `build --all` selection's candidates, in its final order. */
  candidates: readonly Candidate[];
  /** Each candidate's reason in a build with no target (`source:id` → reason): an always rule's own words. */
  plainReasons: ReadonlyMap<string, string>;
  /** Every file git tracks, root-relative. */
  tracked: readonly string[];
  /** The agents to show, as their own settings have them. */
  profiles: readonly AgentProfile[];
  /** The agents ctxinject has a host integration for (a hook or a plugin that injects on its own). */
  integrated: ReadonlySet<string>;
  /** doctor's findings over the same tree. */
  findings: readonly Finding[];
  /** The folder a located instruction file applies from (its rules folder's parent, an AGENTS.md's folder). */
  anchorOf(path: string): string;
  isInstruction(path: string): boolean;
  linear?: LinearEngine;
  memo?: RunMemo;
}

export interface CoverageItem {
  /** The instruction file (root-relative), or `source:id` for an entry of ctxinject's own (config `custom`). */
  file: string;
  tokens: number;
  /** Why, in explain's words; REPRESENTATIVE stands for the folder's representative file. */
  reason: string;
  /** For a description offered: who offers it (the agent itself, or "ctxinject" in its index). */
  by?: string;
}

export interface CellFinding {
  severity: Finding["severity"];
  kind: string;
  /** The file the finding is about; for one that sums up several files (`files`), the first of them (a folder's path would tell cells apart that are alike). */
  file: string;
  line?: number;
  message: string;
  /** The files a summing-up finding names (`not-seen`, `no-agent-reads`: one finding per cell, not one per file). */
  files?: string[];
}

export interface CoverageCell {
  /** The tokens of what the agent has in full here: what it loads and what ctxinject adds. */
  tokens: number;
  /** Indexes into the model's `items`. */
  loads: number[];
  adds: number[];
  /** Descriptions only (agent-requested rules, skills): offered by the agent itself, or listed in ctxinject's index. */
  offers: number[];
  findings: CellFinding[];
}

export interface CoverageFolder {
  path: string;
  depth: number;
  /** Files below it, instruction files left out. */
  files: number;
  representative: string;
  /** Folders below it left out because every one of them is the same as this one (0: none, or shown). */
  hidden: number;
  /** Agent → index into `cells`. */
  cells: Record<string, number>;
}

/** `copy`: the agent never gets this file, but gets its text (or nearly) through another file (`copies` names it). */
export type RuleState = "loads" | "adds" | "offers" | "copy" | "never";

export interface CoverageRule {
  file: string;
  source: string;
  kind: string;
  /** The tracked files it applies to, each judged by itself (instruction files left out). */
  files: number;
  /** How each agent gets it where it applies, at best. */
  agents: Record<string, RuleState>;
  /** For the agents in state `copy`: the file that brings them its text (the first folder's). */
  copies?: Record<string, string>;
}

export interface CoverageModel {
  agents: Array<{ name: string; integration: boolean }>;
  /** How "applies in a folder" is decided. */
  representative: string;
  folders: CoverageFolder[];
  /** Each (file, reason, offered by) once: 100k folders list the same few thousand entries again and again. */
  items: CoverageItem[];
  cells: CoverageCell[];
  rules: CoverageRule[];
}

/** The model and, for `--base`, every folder's cells (collapsed ones too). */
export interface Coverage {
  model: CoverageModel;
  /**
   * Each folder's cell per agent, in `model.agents` order: a list of numbers, not an object keyed by agent per folder
   * (14 keyed stores and an object with a property store for each of a 100k-file tree's folders, each kept to the end).
   */
  every: Map<string, readonly number[]>;
}

export const REPRESENTATIVE_RULE =
  "each folder is judged by one file: its first file by path order that is no instruction file, as `build --files <that file>` judges it (a folder holding only folders: no glob matches there; its AGENTS.md chain and always rules are those of the first file below it); agents are taken to run from the project top";

/** A candidate as it applies somewhere, for one reason: made once and met again in every folder it applies to. */
class Applied {
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
  constructor(c: Candidate, key: string, full: boolean, reason: string, group: number, index: number, pathRank: number, findings: Finding[] | undefined, serial: number) {
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
 * A new empty list, made by a builtin: an array literal kept past a collection has an allocation site whose "old
 * space or new" decision V8 takes at a later one, and that decision threw away every compiled function holding the
 * site (the folder loop's, each 30-100 ms of compiling to do again on a 100k-file tree).
 */
function fresh<T>(): T[] {
  return (NOTHING as T[]).slice();
}
/** Never written: `fresh` copies it. */
const NOTHING: readonly unknown[] = [];

/**
 * `fresh` for a list of objects or strings: a copy of an empty list whose elements kind is already "any value". A
 * list of small integers (fresh's) turns into one on its first object, and optimised code that pushed onto the first
 * kind is thrown away there ("not a Smi": rowHere, summaryId, madeRow each compiled once more on the large tree).
 */
function freshObjects<T>(): T[] {
  return (OBJECTS as T[]).slice();
}
/** Never written: `freshObjects` copies it (a slice keeps the "any value" kind of `[null]`). */
const OBJECTS: readonly unknown[] = [null].slice(1);

/** A folder as the model lists it (fields in the JSON's order). */
class ListedFolder implements CoverageFolder {
  path: string;
  depth: number;
  files: number;
  representative: string;
  hidden: number;
  cells: Record<string, number>;
  constructor(folder: Folder, hidden: number, cells: Record<string, number>) {
    this.path = folder.path;
    this.depth = folder.depth;
    this.files = folder.files;
    this.representative = folder.representative;
    this.hidden = hidden;
    this.cells = cells;
  }
}

/** A rule's globs as the folder loop matches them. */
class GlobsOf {
  constructor(
    /** Per folder below the anchor (path patterns) or per place (name patterns: 0 nested, 1 at the anchor): name → hit. */
    readonly known: Array<Map<number, string | null>> | null,
    readonly byName: boolean,
    readonly cut: number,
    readonly relDirs: Map<number, number>,
    readonly match: GlobMatcher,
  ) {}
}

/** A summing-up finding made: its agent, its files' serials (start and length) and its number. */
class Summary {
  constructor(readonly agent: number, readonly at: number, readonly n: number, readonly id: number) {}
}

/** A finding naming the files it sums up (fields in the JSON's order). */
class SummaryFinding implements CellFinding {
  severity: Finding["severity"] = "warning";
  kind: string;
  file: string;
  message: string;
  files: string[];
  constructor(kind: string, files: string[], message: string) {
    this.kind = kind;
    this.file = files[0]!;
    this.message = message;
    this.files = files;
  }
}

/** An answer's entry not numbered yet. */
const UNNUMBERED = -2;

// The objects the folder loop keeps (answers, entries, cells, rows) are made by constructors, not literals: a literal
// has an allocation site whose "old space or new" decision V8 revisits at a garbage collection, and each change threw
// away every compiled function that made such objects (agentCells, askAgents, rowHere were compiled 4 times over).

/** An agent's own answer for an applied candidate, and its entry (-1: none; UNNUMBERED: not numbered yet). */
class Answer {
  reason: string | null;
  id: number;
  /** True when the loader did not look at the folder's file: the same answer in every folder. */
  fixed = false;
  constructor(reason: string | null, id: number) {
    this.reason = reason;
    this.id = id;
  }
}

class Item implements CoverageItem {
  file: string;
  tokens: number;
  reason: string;
  declare by?: string;
  constructor(file: string, tokens: number, reason: string, by: string | undefined) {
    this.file = file;
    this.tokens = tokens;
    this.reason = reason;
    if (by !== undefined) this.by = by;
  }
}

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

const STATES: readonly RuleState[] = ["never", "offers", "copy", "adds", "loads"];
const NEVER = 0;
const OFFERS = 1;
const COPY = 2;
const ADDS = 3;
const LOADS = 4;

const applyHere = (n: number) => (n === 1 ? "1 file that applies here" : `${n} files that apply here`);

export function coverageModel(input: CoverageInput): Coverage {
  const globOptions = input.linear !== undefined ? { linear: input.linear, ...(input.memo && { memo: input.memo }) } : input.memo ? { memo: input.memo } : {};
  const keyOf = (c: Candidate) => c.path ?? `${c.source}:${c.id}`;
  const order = new Map<Candidate, number>();
  const byAnchor = new Map<string, Candidate[]>();
  const byPath = new Map<string, Candidate>();
  const present = new Set<string>();
  const texts: Array<{ key: string; content: string }> = [];
  input.candidates.forEach((c, i) => {
    if (c.path !== null) {
      byPath.set(c.path, c);
      present.add(c.path);
      for (const alias of c.aliases ?? []) present.add(alias);
    }
    if (!mayApply(c)) return;
    order.set(c, i);
    texts.push({ key: keyOf(c), content: c.content });
    const anchor = c.path === null ? "" : input.anchorOf(c.path);
    const list = byAnchor.get(anchor);
    if (list === undefined) byAnchor.set(anchor, [c]);
    else list.push(c);
  });
  const copies = textCopies(texts);
  const bytesOf = (path: string) => utf8Bytes(byPath.get(path)?.content ?? "");
  const matchers = new Map<Candidate, GlobMatcher>();
  const matcherOf = (c: Candidate) => {
    let m = matchers.get(c);
    if (m === undefined) {
      m = compileGlobs(c.globs, c.path === null ? "" : input.anchorOf(c.path), globOptions);
      matchers.set(c, m);
    }
    return m;
  };
  const code = codeFiles(input.tracked, input.isInstruction);
  // A glob matches the path below its anchor (core/parse/globs.ts), and a pattern without a `/` a nested path's last
  // segment: every package's `src/**/*.ts` over the same layout, or a `*.ts` over 100k files, is worked out once per
  // path below the anchor or per file name, for the folders' files and the rules' counts alike. A path is known by
  // numbers (its folder below the anchor, then its file name), each file's cut out once: a string sliced per check
  // and hashed as a map key was the hottest line of a 100k-file tree's run.
  const nameIds = new Int32Array(code.length).fill(-1);
  const dirIds = new Int32Array(code.length).fill(-1);
  const nameIdOf = new Map<string, number>();
  const dirIdOf = new Map<string, number>();
  const dirPaths: string[] = [];
  const idsAt = (at: number) => {
    const file = code[at]!;
    const slash = file.lastIndexOf("/");
    const name = file.slice(slash + 1);
    let id = nameIdOf.get(name);
    if (id === undefined) nameIdOf.set(name, (id = nameIdOf.size));
    nameIds[at] = id;
    // Files come in path order: most are in the folder of the file before them (no slice, no lookup).
    const before = at > 0 ? dirIds[at - 1]! : -1;
    if (before >= 0 && dirPaths[before]!.length === Math.max(slash, 0) && (slash < 0 || file.startsWith(dirPaths[before]!))) {
      dirIds[at] = before;
      return;
    }
    const dir = slash < 0 ? "" : file.slice(0, slash);
    id = dirIdOf.get(dir);
    if (id === undefined) {
      dirIdOf.set(dir, (id = dirPaths.length));
      dirPaths.push(dir);
    }
    dirIds[at] = id;
  };
  /** Per cut (an anchor's length and its `/`): a folder's number → its path below the anchor, numbered. */
  const relDirsByCut = new Map<number, Map<number, number>>();
  const relDirIdOf = new Map<string, number>();
  type Globs = GlobsOf;
  const globHits = new Map<string, Array<Map<number, string | null>>>();
  const globsOf = new Map<Candidate, Globs>();
  // The rules' counts ask for one rule over a run of files, most in the folder of the one before: the rule's globs
  // and the folder's answers by file name are those of the last call.
  let lastC: Candidate | null = null;
  let lastG: Globs | undefined;
  let lastDir = -1;
  let lastByName: Map<number, string | null> | undefined;
  // matchOf runs for every (rule, file) pair and V8 compiles it again each time it meets a path its code has not
  // seen (a rule's first call, a new folder): the rare paths are functions of their own, so matchOf stays small and
  // each recompile is cheap (it was compiled 5 times, 20-100 ms apiece, on the large tree).
  /** A rule's globs and what they answered so far: made on the rule's first file. */
  const globsFor = (c: Candidate): Globs => {
    const anchor = c.path === null ? "" : input.anchorOf(c.path);
    const byName = c.globs.every((p) => nameOnly(p, anchor));
    let known: Array<Map<number, string | null>> | null = null;
    // A path pattern at the top is asked once per file anyway: nothing to share.
    if (anchor !== "" || byName) {
      const globsKey = `${byName ? "name" : "path"}\n${c.globs.join("\n")}`;
      known = globHits.get(globsKey) ?? null;
      if (known === null) globHits.set(globsKey, (known = fresh()));
    }
    const cut = anchor === "" ? 0 : anchor.length + 1;
    let relDirs = relDirsByCut.get(cut);
    if (relDirs === undefined) relDirsByCut.set(cut, (relDirs = new Map()));
    const g = new GlobsOf(known, byName, cut, relDirs, matcherOf(c));
    globsOf.set(c, g);
    return g;
  };
  /**
   * Whether `pattern`'s answer for a file is a function of the file's name (and whether it is at the anchor itself):
   * one without a `/`, or `**\/` and one without a `/` (git tracks no `.` or `..` segment, so any folders match
   * the `**`). A top-level `**\/*.ts` was matched against each of a 100k-file tree's files for the rule's count
   * (~30 ms); by name, once per file name. Not where a folder named `**` at the anchor holds files: a path equal to
   * the pattern matches as written.
   */
  const nameOnly = (pattern: string, anchor: string): boolean => {
    const p = pattern.startsWith("!") ? pattern.slice(1) : pattern;
    if (!p.includes("/") && !p.includes("\\")) return true;
    const normal = normalizePattern(p);
    if (!normal.startsWith("**/") || normal.includes("/", 3)) return false;
    const literal = anchor === "" ? "**/" : `${anchor}/**/`;
    const at = firstFrom(code, literal);
    return at >= code.length || !code[at]!.startsWith(literal);
  };
  /** The answers by file name of `g` for files in folder `dir` (shared by every folder alike below its anchor). */
  const answersIn = (g: Globs, dir: number): Map<number, string | null> => {
    // A file at the anchor itself is matched as a whole (a pattern equal to the path matches it as written).
    let place: number;
    if (g.byName) place = dirPaths[dir]!.length >= g.cut && dirPaths[dir] !== "" ? 0 : 1;
    else {
      let rel = g.relDirs.get(dir);
      if (rel === undefined) {
        const below = dirPaths[dir]!.slice(g.cut);
        rel = relDirIdOf.get(below);
        if (rel === undefined) relDirIdOf.set(below, (rel = relDirIdOf.size));
        g.relDirs.set(dir, rel);
      }
      place = rel;
    }
    let byName = g.known![place];
    if (byName === undefined) g.known![place] = byName = new Map();
    return byName;
  };
  /** The pattern of `c` that matches `code[at]`, if any. */
  const matchOf = (c: Candidate, at: number): string | null => {
    if (c !== lastC) {
      lastC = c;
      lastG = globsOf.get(c) ?? globsFor(c);
      lastDir = -1;
    }
    const g = lastG!;
    const file = code[at]!;
    if (g.known === null) return g.match(file);
    if (nameIds[at]! < 0) idsAt(at);
    const dir = dirIds[at]!;
    if (dir !== lastDir) {
      lastDir = dir;
      lastByName = answersIn(g, dir);
    }
    const name = nameIds[at]!;
    let hit = lastByName!.get(name);
    if (hit === undefined) lastByName!.set(name, (hit = g.match(file)));
    return hit;
  };
  const plain = (c: Candidate, fallback: string) => input.plainReasons.get(`${c.source}:${c.id}`) ?? fallback;

  const findingsOf = new Map<string, Finding[]>();
  for (const f of input.findings) {
    const list = findingsOf.get(f.file);
    if (list === undefined) findingsOf.set(f.file, [f]);
    else list.push(f);
  }
  const pathRank = new Map([...order.keys()].map((c) => keyOf(c)).sort(compareText).map((key, i) => [key, i]));
  const indexOf = new Map([...order.keys()].map((c, i) => [c, i]));
  let serials = 0;
  const made = new Map<Candidate, Applied>();
  const madeFor = new Map<Candidate, Map<string, Applied>>();
  const make = (c: Candidate, full: boolean, reason: string): Applied => {
    const key = keyOf(c);
    return new Applied(c, key, full, reason, copies.groupOf.get(key)!, indexOf.get(c)!, pathRank.get(key)!, findingsOf.get(key), serials++);
  };
  const once = (c: Candidate, full: boolean, reason: () => string): Applied => {
    let a = made.get(c);
    if (a === undefined) made.set(c, (a = make(c, full, reason())));
    return a;
  };

  /** Whether, and why, a candidate applies for a folder judged by `code[at]` (-1: a folder of folders; the rules' anchors are checked first). */
  const applies = (c: Candidate, at: number): Applied | null => {
    if (c.path === null) return once(c, true, () => c.reason);
    switch (c.kind) {
      case "directory":
        return once(c, true, () => (input.anchorOf(c.path!) === "" ? "project root" : `on the path to ${REPRESENTATIVE}`));
      case "always":
        return once(c, true, () => plain(c, "always"));
      case "auto": {
        // A folder of folders has no file for a glob to match: its rules show where the files are.
        if (at < 0) return null;
        const pattern = matchOf(c, at);
        if (pattern === null) return null;
        let byPattern = madeFor.get(c);
        if (byPattern === undefined) madeFor.set(c, (byPattern = new Map()));
        let a = byPattern.get(pattern);
        if (a === undefined) byPattern.set(pattern, (a = make(c, true, `glob ${pattern} matches ${REPRESENTATIVE}`)));
        return a;
      }
      case "agent-requested":
        // In explain's words for where it went (core/render/tiers.ts); its score depends on the prompt, and there is none.
        return once(c, false, () => `description only: no prompt to score it against; ${INDEX_EXPLAINED}`);
      default:
        return null;
    }
  };

  const concerns = (f: Finding, agent: string) => {
    const tags = f.agent.split(", ");
    return tags.includes(agent) || tags.includes("ctxinject");
  };

  // Entries and findings are numbered once each, so a cell is known by a short key of numbers (JSON-stringifying
  // 90k cells to find the 30k different ones took most of a 100k-file tree's run).
  const items: CoverageItem[] = [];
  const itemIds = new Map<string, Map<string, number>>();
  const itemId = (file: string, tokens: number, reason: string, by?: string): number => {
    let byReason = itemIds.get(file);
    if (byReason === undefined) itemIds.set(file, (byReason = new Map()));
    const key = by === undefined ? reason : `${by}\n${reason}`;
    let id = byReason.get(key);
    if (id === undefined) {
      id = items.length;
      items.push(new Item(file, tokens, reason, by));
      byReason.set(key, id);
    }
    return id;
  };
  const findingList: CellFinding[] = [];
  const findingIds = new Map<string, number>();
  const findingId = (f: CellFinding): number => {
    const key = `${f.kind}\n${f.file}\n${f.line ?? ""}\n${f.severity}\n${f.message}\n${f.files?.join("\n") ?? ""}`;
    let id = findingIds.get(key);
    if (id === undefined) {
      id = findingList.length;
      findingList.push(f);
      findingIds.set(key, id);
    }
    return id;
  };
  /** A finding that sums up files, known by its kind, agent and the files (compared as numbers, no long strings). */
  // Each known by the serials of its files' Applied, in one typed array (a copy of the list per summary was ~3 MB
  // of a 100k-file tree's model, kept to the end): its start there and its length.
  const summaries = new Map<number, Summary[]>();
  let serialsOf = new Int32Array(1 << 12);
  let serialsEnd = 0;
  const sameSerials = (at: number, files: readonly Applied[]) => {
    for (let i = 0; i < files.length; i++) if (serialsOf[at + i] !== files[i]!.serial) return false;
    return true;
  };
  const summaryId = (agent: number, files: Applied[], name: string): number => {
    let h = Math.imul(0x811c9dc5 ^ (agent + 2), 0x01000193);
    for (const a of files) h = Math.imul(h ^ a.pathRank, 0x01000193);
    // Kept within a small integer, so a map key is no boxed number.
    const hash = h & 0x3fffffff;
    let same = summaries.get(hash);
    if (same === undefined) summaries.set(hash, (same = freshObjects()));
    const found = same.find((s) => s.agent === agent && s.n === files.length && sameSerials(s.at, files));
    if (found !== undefined) return found.id;
    const id = findingList.length;
    const paths = files.map((a) => a.key);
    // The count from `files`: the mapped list's elements kind varies, and reading its length threw summaryId away.
    const n = files.length;
    findingList.push(
      agent < 0
        ? new SummaryFinding("no-agent-reads", paths, `${applyHere(n)}: none of ${names.join(", ")} reads ${n === 1 ? "it" : "them"} (none loads it by itself or has ctxinject's hook)`)
        : new SummaryFinding("not-seen", paths, `${applyHere(n)} for other agents: ${name} never sees ${n === 1 ? "it" : "them"}`),
    );
    if (serialsEnd + files.length > serialsOf.length) {
      const bigger = new Int32Array(Math.max(2 * serialsOf.length, serialsEnd + files.length));
      bigger.set(serialsOf.subarray(0, serialsEnd));
      serialsOf = bigger;
    }
    for (let i = 0; i < files.length; i++) serialsOf[serialsEnd + i] = files[i]!.serial;
    same.push(new Summary(agent, serialsEnd, files.length, id));
    serialsEnd += files.length;
    return id;
  };
  const doctorIds = new Map<Finding, number>();
  const doctorId = (f: Finding): number => {
    let id = doctorIds.get(f);
    if (id === undefined) doctorIds.set(f, (id = findingId(cellFinding(f))));
    return id;
  };
  const byFinding = (x: number, y: number) => {
    const a = findingList[x]!;
    const b = findingList[y]!;
    return compareText(a.file, b.file) || (a.line ?? 0) - (b.line ?? 0) || compareText(a.kind, b.kind) || compareText(a.message, b.message);
  };

  const root = folderTree(code);
  const folders = eachFolder(root);
  const cells: CoverageCell[] = [];
  const names = input.profiles.map((p) => p.name);
  // Read once into plain lists: each profile is an object of its own shape, and reading them in the folder loop made
  // V8 throw away its compiled loop for each new shape met.
  const loaders = input.profiles.map((p) => p.loadsItself);
  const caps = input.profiles.map((p) => p.maxChars ?? -1);
  const hooked = input.profiles.map((p) => input.integrated.has(p.name));
  const agentCount = names.length;
  // How each agent gets each candidate at best (a STATES index), row by row: a table, not a map per file.
  const state = new Uint8Array(order.size * agentCount);
  const note = (a: Applied, agent: number, got: number) => {
    const at = a.index * agentCount + agent;
    if (got > state[at]!) state[at] = got;
  };
  const copiedBy = new Map<string, Record<string, string>>();
  const every = new Map<string, readonly number[]>();
  /** One agent's cell in the folder at hand, in lists reused from folder to folder (copied only into a new cell). */
  interface Scratch {
    loads: number[];
    adds: number[];
    offers: number[];
    findings: number[];
    tokens: number;
    missed: Applied[];
  }
  const scratch: Scratch[] = names.map(() => ({ loads: [], adds: [], offers: [], findings: [], tokens: 0, missed: [] }));
  /** Each cell's findings as numbers, to compare a new cell's with. */
  const cellFindings: number[][] = [];
  /** A folder's row (cell per agent), kept for its subfolders: most cells are the same as their parent's. */
  const rowOf = new Map<string, number[]>();
  // Cells by a hash of their numbers (a separator between the lists), each compared in full on a hit: the first
  // cell of a hash, then each cell's next of the same hash (-1: none), no list per hash.
  const cellIndex = new Map<number, number>();
  const nextSameHash: number[] = [];
  const isCell = (index: number, s: Scratch) => {
    const cell = cells[index]!;
    return sameIds(cell.loads, s.loads) && sameIds(cell.adds, s.adds) && sameIds(cell.offers, s.offers) && sameIds(cellFindings[index]!, s.findings);
  };
  // Cells' lists of the same numbers are one list (read only): a 100k-file tree's 58k cells hold 141k non-empty
  // lists of only 37k different ones, and each list kept was copied by the young collections until promoted.
  const listOf = new Map<number, number[]>();
  const shared = (ids: number[]): number[] => {
    if (ids.length === 0) return NO_IDS as number[];
    const hash = hashIds(0, ids);
    const known = listOf.get(hash);
    if (known !== undefined && sameIds(known, ids)) return known;
    const copy = ids.slice();
    // A hash already taken by other numbers keeps its list (this one is not shared).
    if (known === undefined) listOf.set(hash, copy);
    return copy;
  };
  const sameIds = (x: readonly number[], y: readonly number[]) => {
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    return true;
  };

  // Per agent, per text group: whether it has the text here (any way, or in full) and the first file that brings it
  // in full, marked with the folder's number instead of cleared (no set or map per folder and agent).
  const groupCount = copies.holders.length;
  const hadMark = names.map(() => new Int32Array(groupCount).fill(-1));
  const fullMark = names.map(() => new Int32Array(groupCount).fill(-1));
  const fullFile = names.map(() => new Array<string>(groupCount));
  /** The file that brings the agent `group`'s text in full in folder `n` (itself, or a text holding it), if any. */
  const copyIn = (agent: number, n: number, group: number): string | undefined => {
    const mark = fullMark[agent]!;
    if (mark[group] === n) return fullFile[agent]![group];
    const holders = copies.holders[group]!;
    for (let i = 0; i < holders.length; i++) if (mark[holders[i]!] === n) return fullFile[agent]![holders[i]!];
    return undefined;
  };
  // What applies in a folder, parents before children: a parent's list, plus the folder's own, in selection order.
  const scopedOf = new Map<string, Candidate[]>();
  const merged = (x: Candidate[], y: Candidate[]): Candidate[] => {
    const out: Candidate[] = freshObjects();
    let i = 0;
    let j = 0;
    while (i < x.length || j < y.length) {
      if (j >= y.length || (i < x.length && order.get(x[i]!)! < order.get(y[j]!)!)) out.push(x[i++]!);
      else out.push(y[j++]!);
    }
    return out;
  };

  // Scratch tables reused from folder to folder (a typed array per folder was a good part of the garbage).
  let seenScratch = new Uint8Array(256);
  let countScratch = new Uint8Array(64);
  const left: number[] = [];
  const applied: Applied[] = [];
  const byPathRank = (x: number, y: number) => applied[x]!.pathRank - applied[y]!.pathRank;
  const unseen: number[] = [];
  const nobody: Applied[] = [];

  // The agents' loaders are pure functions of a candidate and this context, and only `reads` (the folder's file)
  // changes from folder to folder: an answer given without reading it holds for every folder.
  let readsNow: readonly string[] = [];
  let touched = false;
  const context: LoadedContext = {
    present,
    workingFolder: "",
    get reads() {
      touched = true;
      return readsNow;
    },
    bytesOf,
  };
  /** Per agent x applied candidate (agent-major), the agent's own answer in the folder at hand. */
  const answers: Array<string | null> = [];
  const rowsByKey = new Map<number, MadeRow[]>();
  const rowKey = (list: readonly Applied[]): number => {
    let h = 0x811c9dc5;
    for (let i = 0; i < list.length; i++) h = Math.imul(h ^ list[i]!.serial, 0x01000193);
    return (h ^ list.length) & 0x3fffffff;
  };
  const sameRow = (r: MadeRow): boolean => {
    if (r.applied.length !== applied.length) return false;
    for (let i = 0; i < applied.length; i++) if (r.applied[i] !== applied[i]) return false;
    // The same candidates: an answer fixed when the row was made is still theirs (a fixed answer is never asked again).
    for (let k = 0; k < r.varying.length; k++) if (r.values[k] !== answers[r.varying[k]!]) return false;
    return true;
  };
  /** The row's answers that read the folder's file: their places and values. */
  const madeRow = (count: number, indexes: number[]): MadeRow => {
    const varying: number[] = fresh();
    const values: Array<string | null> = freshObjects();
    for (let agent = 0; agent < agentCount; agent++)
      for (let at = 0; at < count; at++)
        if (!applied[at]!.own[agent]!.fixed) {
          varying.push(agent * count + at);
          values.push(answers[agent * count + at] as string | null);
        }
    return new MadeRow(applied.slice(), varying, values, indexes);
  };
  const deadOf = new Map<Candidate, Array<number[] | undefined>>();
  /** Doctor's dead-glob findings on a rule that concern an agent (numbered), worked out once. */
  const deadGlobs = (c: Candidate, agent: number): number[] => {
    let byAgent = deadOf.get(c);
    if (byAgent === undefined) deadOf.set(c, (byAgent = fresh()));
    let ids = byAgent[agent];
    if (ids === undefined) byAgent[agent] = ids = idsOf(findingsOf.get(c.path!), (f) => f.kind === "dead-glob" && concerns(f, names[agent]!));
    return ids;
  };
  // Each list made by pushing into a literal: lists of one element kind (`filter().map()` gave the empty ones
  // another), so the loop reading them keeps one compiled form (a "wrong map" deopt recompiled agentCells).
  const idsOf = (findings: readonly Finding[] | undefined, keep: (f: Finding) => boolean): number[] => {
    const ids: number[] = fresh();
    if (findings !== undefined) for (let i = 0; i < findings.length; i++) if (keep(findings[i]!)) ids.push(doctorId(findings[i]!));
    return ids;
  };
  const concerningOf = (a: Applied, agent: number): number[] => {
    let ids = a.concerning[agent];
    if (ids === undefined) a.concerning[agent] = ids = idsOf(a.findings, (f) => concerns(f, names[agent]!));
    return ids;
  };

  // The loop's parts are functions of their own, each compiled by itself: one loop body holding them all took V8
  // ~0.25 s of CPU to compile, again after each deopt.
  /** The agents' own answers for the folder's applied candidates (`answers`). */
  const askAgents = (count: number): void => {
    // The agents' own answers here, each loader asked again only where its last answer read the folder's file.
    if (answers.length < count * agentCount) answers.length = count * agentCount;
    for (let agent = 0; agent < agentCount; agent++) {
      const loadsItself = loaders[agent]!;
      for (let at = 0; at < count; at++) {
        const a = applied[at]!;
        let cached = a.own[agent];
        if (cached === undefined || !cached.fixed) {
          touched = false;
          const reason = loadsThroughAnyPath(loadsItself, a.c, context);
          // Its entry is numbered where the cell lists it (below), so entries keep the order cells meet them in.
          if (cached === undefined || cached.reason !== reason) cached = new Answer(reason, reason === null ? -1 : UNNUMBERED);
          cached.fixed = !touched;
          a.own[agent] = cached;
        }
        answers[agent * count + at] = cached.reason;
      }
    }
  };
  /** Each agent's cell in folder `n` (in `scratch`); true when a cap's finding names the folder. */
  const agentCells = (n: number, count: number, own: Candidate[] | undefined, folder: Folder, seen: Uint8Array, seenCount: Uint8Array): boolean => {
    let capped = false;
    for (let agent = 0; agent < agentCount; agent++) {
      const name = names[agent]!;
      const cap = caps[agent]!;
      const s = scratch[agent]!;
      const { loads, adds, offers, findings } = s;
      clear(loads);
      clear(adds);
      clear(offers);
      clear(findings);
      clear(s.missed);
      let tokens = 0;
      const had = hadMark[agent]!;
      const full = fullMark[agent]!;
      const fileOf = fullFile[agent]!;
      clear(left);
      for (let at = 0; at < count; at++) {
        const a = applied[at]!;
        const cached = a.own[agent]!;
        if (cached.reason === null) {
          left.push(at);
          continue;
        }
        had[a.group] = n;
        if (cached.id === UNNUMBERED) cached.id = itemId(a.key, a.c.tokens, cached.reason, a.full ? undefined : name);
        if (a.full) {
          loads.push(cached.id);
          tokens += a.c.tokens;
          if (full[a.group] !== n) {
            full[a.group] = n;
            fileOf[a.group] = a.key;
          }
          note(a, agent, LOADS);
        } else {
          offers.push(cached.id);
          note(a, agent, OFFERS);
        }
        seen[at * agentCount + agent] = 1;
        seenCount[at]!++;
        if (a.findings !== undefined) pushAll(findings, concerningOf(a, agent));
      }
      // What the hook injects: the rest, one copy of each text (a copy of what the agent has, or a text mostly
      // inside it, is no news to it: dedup leaves those out).
      let addedChars = 0;
      if (hooked[agent]) {
        for (let i = 0; i < left.length; i++) {
          const at = left[i]!;
          const a = applied[at]!;
          if (had[a.group] === n || copyIn(agent, n, a.group) !== undefined) continue;
          had[a.group] = n;
          if (a.addId < 0) a.addId = itemId(a.key, a.c.tokens, a.reason, a.full ? undefined : "ctxinject");
          if (a.full) {
            adds.push(a.addId);
            tokens += a.c.tokens;
            addedChars += a.c.content.length;
            if (full[a.group] !== n) {
              full[a.group] = n;
              fileOf[a.group] = a.key;
            }
            note(a, agent, ADDS);
          } else {
            offers.push(a.addId);
            note(a, agent, OFFERS);
          }
          seen[at * agentCount + agent] = 1;
          seenCount[at]!++;
          if (a.findings !== undefined) pushAll(findings, concerningOf(a, agent));
        }
      }
      // A rule of this folder that applies nowhere here (a dead glob) still has its findings shown where it lives.
      if (own !== undefined) for (let o = 0; o < own.length; o++) {
        const c = own[o]!;
        if (c.path === null) continue;
        const dead = deadGlobs(c, agent);
        if (dead.length === 0) continue;
        const at = applied.findIndex((a) => a.c === c);
        if (at >= 0 && seen[at * agentCount + agent] === 1) continue;
        pushAll(findings, dead);
      }
      if (cap >= 0 && addedChars > cap) {
        // Its finding names the folder: this row is no other folder's.
        capped = true;
        findings.push(findingId({ severity: "warning", kind: "over-host-cap", file: folder.path === "" ? "." : folder.path, message: `ctxinject adds about ${addedChars} characters here, over ${name}'s cap of ${cap}: the weakest are trimmed or listed in the index` }));
      }
      s.tokens = tokens;
    }
    return capped;
  };
  /** What some agents see here and others never do (`missed`, `nobody`), or see through a copy. */
  const notSeen = (n: number, count: number, seen: Uint8Array, seenCount: Uint8Array): void => {
    // What one agent gets and another never sees here, or what none of them sees: one finding per cell naming the
    // files, in path order. An agent that gets the same text (or nearly) through another file has seen it.
    clear(nobody);
    clear(unseen);
    for (let at = 0; at < count; at++) if (seenCount[at]! < agentCount && applied[at]!.c.path !== null) unseen.push(at);
    if (unseen.length > 1) unseen.sort(byPathRank);
    for (let u = 0; u < unseen.length; u++) {
      const at = unseen[u]!;
      const a = applied[at]!;
      let missing = 0;
      for (let agent = 0; agent < agentCount; agent++) {
        if (seen[at * agentCount + agent] === 1) continue;
        const via = copyIn(agent, n, a.group);
        if (via === undefined) {
          missing++;
          continue;
        }
        // Marked as seen (by its copy), so the lists below leave it out.
        seen[at * agentCount + agent] = 2;
        note(a, agent, COPY);
        let byAgent = copiedBy.get(a.key);
        if (byAgent === undefined) copiedBy.set(a.key, (byAgent = {}));
        byAgent[names[agent]!] ??= via;
      }
      if (missing === agentCount) nobody.push(a);
      else if (missing > 0) for (let agent = 0; agent < agentCount; agent++) if (seen[at * agentCount + agent] === 0) scratch[agent]!.missed.push(a);
    }
  };
  /** The folder's row: each agent's cell found among the cells made, or made; kept for folders alike. */
  /**
   * The index of the cell `s` describes, made if there is none yet. A function of its own, not a branch of rowHere:
   * V8 compiled rowHere again each time a rare branch of it first ran (twice, 140-180 ms on the large tree).
   */
  const cellFor = (s: (typeof scratch)[number]): number => {
    const hash = hashIds(hashIds(hashIds(hashIds(0, s.loads), s.adds), s.offers), s.findings);
    const first = cellIndex.get(hash);
    let found = first ?? -1;
    while (found >= 0 && !isCell(found, s)) found = nextSameHash[found]!;
    if (found >= 0) return found;
    const index = cells.length;
    // Empty lists (most adds, offers and findings) are one shared frozen list: no array per cell.
    cells.push(new Cell(s.tokens, shared(s.loads), shared(s.adds), shared(s.offers), s.findings.length === 0 ? (NO_FINDINGS as CellFinding[]) : s.findings.map((id) => findingList[id]!)));
    cellFindings.push(copyOf(s.findings));
    // The new cell goes first in its hash's chain.
    nextSameHash.push(first ?? -1);
    cellIndex.set(hash, index);
    return index;
  };
  const rowHere = (folder: Folder, key: number, capped: boolean, count: number): void => {
    const parent = folder.path === "" ? undefined : rowOf.get(dirOf(folder.path));
    const indexes: number[] = fresh();
    // What no agent sees is one finding, the same in every cell of the row.
    const unread = nobody.length > 0 ? summaryId(-1, nobody, "") : -1;
    for (let agent = 0; agent < agentCount; agent++) {
      const s = scratch[agent]!;
      if (s.missed.length > 0) s.findings.push(summaryId(agent, s.missed, names[agent]!));
      if (unread >= 0) s.findings.push(unread);
      if (s.findings.length > 1) uniqueSorted(s.findings, byFinding);
      // Most cells are their parent folder's: compared as numbers before any hash is made.
      const was = parent?.[agent];
      let index: number;
      if (was !== undefined && isCell(was, s)) index = was;
      else index = cellFor(s);
      indexes.push(index);
    }
    if (folder.children.length > 0) rowOf.set(folder.path, indexes);
    every.set(folder.path, indexes);
    if (key >= 0 && !capped) {
      let same = rowsByKey.get(key);
      if (same === undefined) rowsByKey.set(key, (same = freshObjects()));
      same.push(madeRow(count, indexes));
    }
  };
  // The loop over the folders is a function of its own: V8 compiles a hot loop's whole function on the spot (OSR),
  // and compiling all of coverageModel for it, twice (code after the loop had no type feedback yet), took ~0.45 s
  // of CPU on a 100k-file tree.
  const eachRow = () => {
    for (let n = 0; n < folders.length; n++) {
      const folder = folders[n]!;
      const file = folder.representative;
      const inherited = folder.path === "" ? [] : (scopedOf.get(dirOf(folder.path)) ?? []);
      const own = byAnchor.get(folder.path);
      const scoped = own === undefined ? inherited : merged(inherited, own);
      if (folder.children.length > 0) scopedOf.set(folder.path, scoped);
      clear(applied);
      for (let i = 0; i < scoped.length; i++) {
        const a = applies(scoped[i]!, folder.own > 0 ? folder.at : -1);
        if (a !== null) applied.push(a);
      }
      const count = applied.length;
      readsNow = [file];
      askAgents(count);
      // A folder with no rule of its own whose candidates and answers are an earlier folder's has that folder's row:
      // its cells are a function of them (sibling folders of a package mostly are; a third of a large tree's).
      const key = own === undefined ? rowKey(applied) : -1;
      if (key >= 0) {
        const earlier = rowsByKey.get(key)?.find(sameRow);
        if (earlier !== undefined) {
          // The same numbers, so the same objects (read only from here on).
          if (folder.children.length > 0) rowOf.set(folder.path, earlier.indexes);
          every.set(folder.path, earlier.indexes);
          continue;
        }
      }
      // Which agents see each applied candidate here: applied position x agent.
      if (seenScratch.length < count * agentCount) seenScratch = new Uint8Array(count * agentCount * 2);
      if (countScratch.length < count) countScratch = new Uint8Array(count * 2);
      const seen = seenScratch.fill(0, 0, count * agentCount);
      const seenCount = countScratch.fill(0, 0, count);
      const capped = agentCells(n, count, own, folder, seen, seenCount);
      notSeen(n, count, seen, seenCount);
      rowHere(folder, key, capped, count);
    }
  };
  eachRow();

  // Rows of the state table, by file, for the rule rows.
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

  const listed: CoverageFolder[] = [];
  // Whether the folders below one all have its cells, and how many there are: children first (`folders` lists
  // parents first), in plain loops over numbers. Recursive functions with callbacks over 8k folders were compiled
  // by V8 for ~130 ms of CPU, to run once for a few milliseconds.
  const numberOf = new Map<Folder, number>();
  for (let n = 0; n < folders.length; n++) numberOf.set(folders[n]!, n);
  const alike = new Uint8Array(folders.length);
  const below = new Int32Array(folders.length);
  for (let n = folders.length - 1; n >= 0; n--) {
    const folder = folders[n]!;
    const ids = every.get(folder.path)!;
    let same = 1;
    let count = 0;
    for (let i = 0; i < folder.children.length; i++) {
      const child = numberOf.get(folder.children[i]!)!;
      count += 1 + below[child]!;
      if (same === 1 && (alike[child] === 0 || !sameIds(every.get(folders[child]!.path)!, ids))) same = 0;
    }
    alike[n] = same;
    below[n] = count;
  }
  // A listed folder's cells keyed by agent, made once per row (folders alike share theirs).
  const keyed = new Map<readonly number[], Record<string, number>>();
  const cellsOf = (indexes: readonly number[]): Record<string, number> => {
    let row = keyed.get(indexes);
    if (row === undefined) {
      row = {};
      for (let agent = 0; agent < agentCount; agent++) row[names[agent]!] = indexes[agent]!;
      keyed.set(indexes, row);
    }
    return row;
  };
  // Parents first, each folder below a collapsed one left out (so are the folders below those).
  const shut = new Uint8Array(folders.length);
  for (let n = 0; n < folders.length; n++) {
    const folder = folders[n]!;
    const collapse = folder.children.length > 0 && alike[n] === 1;
    if (shut[n] === 0) listed.push(new ListedFolder(folder, collapse ? below[n]! : 0, cellsOf(every.get(folder.path)!)));
    if (shut[n] === 1 || collapse) for (let i = 0; i < folder.children.length; i++) shut[numberOf.get(folder.children[i]!)!] = 1;
  }

  const model: CoverageModel = {
    agents: input.profiles.map((p) => ({ name: p.name, integration: input.integrated.has(p.name) })),
    representative: REPRESENTATIVE_RULE,
    folders: listed,
    items,
    cells,
    rules: ruleRows(input, root, code, matchOf, states, copiedBy),
  };
  return { model, every };
}

const NO_IDS: readonly number[] = Object.freeze([]);
const NO_FINDINGS: readonly CellFinding[] = Object.freeze([]);

/** A list kept in a cell: its own copy, or the shared empty one. */
function copyOf(ids: number[]): number[] {
  return ids.length === 0 ? (NO_IDS as number[]) : ids.slice();
}

/**
 * Empties a list reused from folder to folder, keeping its room: `length = 0` drops the backing store, so the next
 * push allocated a new one (several lists per folder and agent: ~40 MB of a 100k-file tree's garbage, and each
 * young collection it caused copied the growing model again).
 */
function clear(list: unknown[]): void {
  while (list.length > 0) list.pop();
}

function pushAll(to: number[], from: readonly number[]): void {
  for (let i = 0; i < from.length; i++) to.push(from[i]!);
}

/** The ids in finding order, each once. */
function uniqueSorted(ids: number[], by: (x: number, y: number) => number): void {
  ids.sort((x, y) => by(x, y) || x - y);
  let end = 0;
  for (let i = 0; i < ids.length; i++) if (i === 0 || ids[i] !== ids[end - 1]) ids[end++] = ids[i]!;
  ids.length = end;
}

/** FNV-1a over a list of numbers, then a separator. */
function hashIds(seed: number, ids: readonly number[]): number {
  let h = seed ^ 0x811c9dc5;
  for (const id of ids) h = Math.imul(h ^ id, 0x01000193);
  // Kept within a small integer, so a map key is no boxed number.
  return Math.imul(h ^ 0xffffffff, 0x01000193) & 0x3fffffff;
}

/** Out of every folder's picture: replaced, switched off, unreadable, empty READMEs, prompt-only entries. */
function mayApply(c: Candidate): boolean {
  if (c.status === "overwritten" || c.status === "disabled" || c.status === "invalid") return false;
  if (c.kind === "keyword" || c.kind === "session" || c.kind === "manual") return false;
  // --all leaves out READMEs of folders that are no package roots ("unmatched"); a build for a file below reads
  // them. Only a README with nothing for an agent is out everywhere (core/sources/readme.ts words it so).
  if (c.status === "unmatched" && c.source === "directory-readme" && c.reason.startsWith("nothing for an agent")) return false;
  return true;
}

function cellFinding(f: Finding): CellFinding {
  return f.line !== undefined ? { severity: f.severity, kind: f.kind, file: f.file, line: f.line, message: f.message } : { severity: f.severity, kind: f.kind, file: f.file, message: f.message };
}

/** Every instruction file: how many files it applies to, each judged by itself, and how each agent gets it. */
function ruleRows(input: CoverageInput, root: Folder, files: string[], matchOf: (c: Candidate, at: number) => string | null, states: Map<string, Record<string, RuleState>>, copiedBy: Map<string, Record<string, string>>): CoverageRule[] {
  const byPath = new Map<string, Folder>();
  for (const folder of eachFolder(root)) byPath.set(folder.path, folder);
  const rows: CoverageRule[] = [];
  for (const c of input.candidates) {
    if (c.path === null) continue;
    const anchor = input.anchorOf(c.path);
    let count = 0;
    if (mayApply(c)) {
      if (c.kind === "auto") count = countMatches(c, anchor, files, matchOf);
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
function countMatches(c: Candidate, anchor: string, files: readonly string[], matchOf: (c: Candidate, at: number) => string | null): number {
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
    if (within && matchOf(c, i) !== null) count++;
  }
  return count;
}

