/**
 * `ctxinject coverage`, the pure part: for every folder and every agent, what the agent loads by itself there, what
 * ctxinject adds for it (with the host integration installed), the tokens, and what goes wrong there. It reads the
 * selection `build --all` makes (kinds, globs, duplicates) and asks each agent's profile (core/agents, the one model
 * the hooks and `explain --as` use); it decides nothing about a rule that select did not decide first.
 */
import { loadsThroughAnyPath, type AgentProfile, type LoadedContext } from "../agents/profile.js";
import type { Finding } from "../doctor/finding.js";
import type { LinearEngine } from "../linear-regexp.js";
import { compileGlobs, type GlobMatcher } from "../parse/globs.js";
import { ancestorsOf, compareText } from "../rel-path.js";
import type { RunMemo } from "../run-memo.js";
import { utf8Bytes } from "../tokens.js";
import type { Candidate } from "../types.js";
import { textCopies } from "./copies.js";
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
  every: Map<string, Record<string, number>>;
}

export const REPRESENTATIVE_RULE =
  "each folder is judged by one file: its first file by path order that is no instruction file , as `build --files <that file>` judges it (a folder holding only folders: no glob matches there; its AGENTS.md chain and always rules are those of the first file below it); agents are taken to run from the project top";

interface Applied {
  c: Candidate;
  key: string;
  full: boolean;
  reason: string;
  /** Its text's group (core/coverage/copies.ts). */
  group: number;
}

const RANK: Record<RuleState, number> = { never: 0, offers: 1, copy: 2, adds: 3, loads: 4 };

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
  const plain = (c: Candidate, fallback: string) => input.plainReasons.get(`${c.source}:${c.id}`) ?? fallback;

  /** Whether, and why, a candidate applies for a folder judged by `file` (the rules' anchors are checked first). */
  const applies = (c: Candidate, anchor: string, file: string, hasFiles: boolean): Applied | null => {
    const key = keyOf(c);
    const group = copies.groupOf.get(key)!;
    if (c.path === null) return { c, key, full: true, reason: c.reason, group };
    switch (c.kind) {
      case "directory":
        return { c, key, full: true, reason: anchor === "" ? "project root" : `on the path to ${REPRESENTATIVE}`, group };
      case "always":
        return { c, key, full: true, reason: plain(c, "always"), group };
      case "auto": {
        // A folder of folders has no file for a glob to match: its rules show where the files are.
        if (!hasFiles) return null;
        const pattern = matcherOf(c)(file);
        return pattern === null ? null : { c, key, full: true, reason: `glob ${pattern} matches ${REPRESENTATIVE}`, group };
      }
      case "agent-requested":
        return { c, key, full: false, reason: "description only: listed in the index (a prompt that matches its description brings it in)", group };
      default:
        return null;
    }
  };

  const findingsOf = new Map<string, Finding[]>();
  for (const f of input.findings) {
    const list = findingsOf.get(f.file);
    if (list === undefined) findingsOf.set(f.file, [f]);
    else list.push(f);
  }
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
      items.push(by === undefined ? { file, tokens, reason } : { file, tokens, reason, by });
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

  const code = codeFiles(input.tracked, input.isInstruction);
  const root = folderTree(code);
  const folders = eachFolder(root);
  const cells: CoverageCell[] = [];
  const cellIndex = new Map<string, number>();
  const states = new Map<string, Record<string, RuleState>>();
  const copiedBy = new Map<string, Record<string, string>>();
  const note = (key: string, agent: string, state: RuleState) => {
    let byAgent = states.get(key);
    if (byAgent === undefined) states.set(key, (byAgent = {}));
    if (RANK[state] > RANK[byAgent[agent] ?? "never"]) byAgent[agent] = state;
  };
  const every = new Map<string, Record<string, number>>();
  const signature = new Map<Folder, string>();
  const names = input.profiles.map((p) => p.name);

  for (const folder of folders) {
    const file = folder.representative;
    const label = folder.path === "" ? "." : folder.path;
    const scoped: Candidate[] = [];
    for (const anchor of ancestorsOf(folder.path)) {
      const list = byAnchor.get(anchor);
      if (list !== undefined) for (const c of list) scoped.push(c);
    }
    scoped.sort((a, b) => order.get(a)! - order.get(b)!);
    const applied: Applied[] = [];
    for (const c of scoped) {
      const a = applies(c, c.path === null ? "" : input.anchorOf(c.path), file, folder.own > 0);
      if (a !== null) applied.push(a);
    }
    const context: LoadedContext = { present, workingFolder: "", reads: [file], bytesOf };
    const seenBy = new Map<string, string[]>();
    /** Per agent: each text group it has in full here, and the first file that brings it. */
    const fullOf = new Map<string, Map<number, string>>();
    const built: Array<{ loads: number[]; adds: number[]; offers: number[]; tokens: number; findings: number[] }> = [];
    for (const profile of input.profiles) {
      const name = profile.name;
      const loads: number[] = [];
      const adds: number[] = [];
      const offers: number[] = [];
      const findings: number[] = [];
      let tokens = 0;
      const had = new Set<number>();
      const full = new Map<number, string>();
      fullOf.set(name, full);
      const sees = (a: Applied) => {
        const list = seenBy.get(a.key);
        if (list === undefined) seenBy.set(a.key, [name]);
        else list.push(name);
        for (const f of findingsOf.get(a.key) ?? []) if (concerns(f, name)) findings.push(doctorId(f));
      };
      const left: Applied[] = [];
      for (const a of applied) {
        const own = loadsThroughAnyPath(profile.loadsItself, a.c, context);
        if (own === null) {
          left.push(a);
          continue;
        }
        had.add(a.group);
        if (a.full) {
          loads.push(itemId(a.key, a.c.tokens, own));
          tokens += a.c.tokens;
          if (!full.has(a.group)) full.set(a.group, a.key);
          note(a.key, name, "loads");
        } else {
          offers.push(itemId(a.key, a.c.tokens, own, name));
          note(a.key, name, "offers");
        }
        sees(a);
      }
      // What the hook injects: the rest, one copy of each text (a copy of what the agent has, or a text mostly
      // inside it, is no news to it: dedup leaves those out).
      let addedChars = 0;
      if (input.integrated.has(name)) {
        for (const a of left) {
          if (had.has(a.group) || heldIn(copies.holders[a.group]!, full) !== undefined) continue;
          had.add(a.group);
          if (a.full) {
            adds.push(itemId(a.key, a.c.tokens, a.reason));
            tokens += a.c.tokens;
            addedChars += a.c.content.length;
            if (!full.has(a.group)) full.set(a.group, a.key);
            note(a.key, name, "adds");
          } else {
            offers.push(itemId(a.key, a.c.tokens, a.reason, "ctxinject"));
            note(a.key, name, "offers");
          }
          sees(a);
        }
      }
      // A rule of this folder that applies nowhere here (a dead glob) still has its findings shown where it lives.
      for (const c of byAnchor.get(folder.path) ?? []) {
        if (c.path === null || seenBy.get(c.path)?.includes(name)) continue;
        for (const f of findingsOf.get(c.path) ?? []) if (f.kind === "dead-glob" && concerns(f, name)) findings.push(doctorId(f));
      }
      if (profile.maxChars !== undefined && addedChars > profile.maxChars) {
        findings.push(findingId({ severity: "warning", kind: "over-host-cap", file: label, message: `ctxinject adds about ${addedChars} characters here, over ${name}'s cap of ${profile.maxChars}: the weakest are trimmed or listed in the index` }));
      }
      built.push({ loads, adds, offers, tokens, findings });
    }
    // What one agent gets and another never sees here, or what none of them sees: one finding per cell naming the
    // files. An agent that gets the same text (or nearly) through another file has seen it.
    const missed = names.map(() => [] as string[]);
    const nobody: string[] = [];
    for (const a of applied) {
      if (a.c.path === null) continue;
      const seen = seenBy.get(a.key) ?? [];
      if (seen.length === names.length) continue;
      const missing: number[] = [];
      names.forEach((name, i) => {
        if (seen.includes(name)) return;
        const via = fullOf.get(name)!.get(a.group) ?? heldIn(copies.holders[a.group]!, fullOf.get(name)!);
        if (via === undefined) {
          missing.push(i);
          return;
        }
        note(a.key, name, "copy");
        let byAgent = copiedBy.get(a.key);
        if (byAgent === undefined) copiedBy.set(a.key, (byAgent = {}));
        byAgent[name] ??= via;
      });
      if (missing.length === names.length) nobody.push(a.key);
      else for (const i of missing) missed[i]!.push(a.key);
    }
    nobody.sort(compareText);
    const row: Record<string, number> = {};
    names.forEach((name, i) => {
      const cell = built[i]!;
      const files = missed[i]!.sort(compareText);
      if (files.length > 0) {
        cell.findings.push(findingId({ severity: "warning", kind: "not-seen", file: files[0]!, message: `${applyHere(files.length)} for other agents: ${name} never sees ${files.length === 1 ? "it" : "them"}`, files }));
      }
      if (nobody.length > 0) {
        cell.findings.push(findingId({ severity: "warning", kind: "no-agent-reads", file: nobody[0]!, message: `${applyHere(nobody.length)}: none of ${names.join(", ")} reads ${nobody.length === 1 ? "it" : "them"} (none loads it by itself or has ctxinject's hook)`, files: nobody }));
      }
      const findings = [...new Set(cell.findings)].sort(byFinding);
      const key = `${cell.loads.join(",")};${cell.adds.join(",")};${cell.offers.join(",")};${findings.join(",")}`;
      let index = cellIndex.get(key);
      if (index === undefined) {
        index = cells.length;
        cells.push({ tokens: cell.tokens, loads: cell.loads, adds: cell.adds, offers: cell.offers, findings: findings.map((id) => findingList[id]!) });
        cellIndex.set(key, index);
      }
      row[name] = index;
    });
    every.set(folder.path, row);
    signature.set(folder, names.map((n) => row[n]).join(","));
  }

  const listed: CoverageFolder[] = [];
  const alike = new Map<Folder, boolean>();
  const sameBelow = (folder: Folder): boolean => {
    let same = alike.get(folder);
    if (same === undefined) {
      same = folder.children.every((child) => sameBelow(child) && signature.get(child) === signature.get(folder));
      alike.set(folder, same);
    }
    return same;
  };
  const countBelow = (folder: Folder): number => folder.children.reduce((n, child) => n + 1 + countBelow(child), 0);
  const walk = (folder: Folder) => {
    const collapse = folder.children.length > 0 && sameBelow(folder);
    listed.push({ path: folder.path, depth: folder.depth, files: folder.files, representative: folder.representative, hidden: collapse ? countBelow(folder) : 0, cells: every.get(folder.path)! });
    if (!collapse) for (const child of folder.children) walk(child);
  };
  walk(root);

  const model: CoverageModel = {
    agents: input.profiles.map((p) => ({ name: p.name, integration: input.integrated.has(p.name) })),
    representative: REPRESENTATIVE_RULE,
    folders: listed,
    items,
    cells,
    rules: ruleRows(input, root, code, matcherOf, states, copiedBy),
  };
  return { model, every };
}

/** The first file the agent has in full (`full`: group → file) whose text holds the group's, if any. */
function heldIn(holders: readonly number[], full: ReadonlyMap<number, string>): string | undefined {
  for (const group of holders) {
    const file = full.get(group);
    if (file !== undefined) return file;
  }
  return undefined;
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
function ruleRows(input: CoverageInput, root: Folder, files: string[], matcherOf: (c: Candidate) => GlobMatcher, states: Map<string, Record<string, RuleState>>, copiedBy: Map<string, Record<string, string>>): CoverageRule[] {
  const byPath = new Map<string, Folder>();
  for (const folder of eachFolder(root)) byPath.set(folder.path, folder);
  const rows: CoverageRule[] = [];
  for (const c of input.candidates) {
    if (c.path === null) continue;
    const anchor = input.anchorOf(c.path);
    let count = 0;
    if (mayApply(c)) {
      if (c.kind === "auto") {
        const match = matcherOf(c);
        for (const f of filesUnder(files, anchor)) if (match(f) !== null) count++;
      } else count = byPath.get(anchor)?.files ?? 0;
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

/** The files below a folder: a slice of the sorted list. */
function filesUnder(sorted: string[], folder: string): string[] {
  if (folder === "") return sorted;
  const prefix = `${folder}/`;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < sorted.length && sorted[end]!.startsWith(prefix)) end++;
  return sorted.slice(lo, end);
}
