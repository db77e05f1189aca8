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
import { eachFolder, folderTree, type Folder } from "./folders.js";

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
}

export interface CellFinding {
  severity: Finding["severity"];
  kind: string;
  file: string;
  line?: number;
  message: string;
}

export interface CoverageCell {
  /** The tokens of what the agent has in full here: what it loads and what ctxinject adds. */
  tokens: number;
  loads: CoverageItem[];
  adds: CoverageItem[];
  /** Descriptions only (agent-requested rules, skills): offered by the agent itself, or listed in ctxinject's index. */
  offers: Array<CoverageItem & { by: string }>;
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

export type RuleState = "loads" | "adds" | "offers" | "never";

export interface CoverageRule {
  file: string;
  source: string;
  kind: string;
  /** The tracked files it applies to, each judged by itself (instruction files left out). */
  files: number;
  /** How each agent gets it where it applies, at best. */
  agents: Record<string, RuleState>;
}

export interface CoverageModel {
  agents: Array<{ name: string; integration: boolean }>;
  /** How "applies in a folder" is decided. */
  representative: string;
  folders: CoverageFolder[];
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
}

const RANK: Record<RuleState, number> = { never: 0, offers: 1, adds: 2, loads: 3 };

export function coverageModel(input: CoverageInput): Coverage {
  const globOptions = input.linear !== undefined ? { linear: input.linear, ...(input.memo && { memo: input.memo }) } : input.memo ? { memo: input.memo } : {};
  const keyOf = (c: Candidate) => c.path ?? `${c.source}:${c.id}`;
  const order = new Map<Candidate, number>();
  const byAnchor = new Map<string, Candidate[]>();
  const dupOf = new Map<string, string>();
  const byPath = new Map<string, Candidate>();
  const present = new Set<string>();
  input.candidates.forEach((c, i) => {
    if (c.path !== null) {
      byPath.set(c.path, c);
      present.add(c.path);
      for (const alias of c.aliases ?? []) present.add(alias);
    }
    if (c.status === "duplicate" && c.reason.startsWith("same content as ")) dupOf.set(keyOf(c), c.reason.slice("same content as ".length).split(" (")[0]!);
    if (!mayApply(c)) return;
    order.set(c, i);
    const anchor = c.path === null ? "" : input.anchorOf(c.path);
    const list = byAnchor.get(anchor);
    if (list === undefined) byAnchor.set(anchor, [c]);
    else list.push(c);
  });
  const canonical = (key: string) => dupOf.get(key) ?? key;
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
    if (c.path === null) return { c, key, full: true, reason: c.reason };
    switch (c.kind) {
      case "directory":
        return { c, key, full: true, reason: anchor === "" ? "project root" : `on the path to ${REPRESENTATIVE}` };
      case "always":
        return { c, key, full: true, reason: plain(c, "always") };
      case "auto": {
        // A folder of folders has no file for a glob to match: its rules show where the files are.
        if (!hasFiles) return null;
        const pattern = matcherOf(c)(file);
        return pattern === null ? null : { c, key, full: true, reason: `glob ${pattern} matches ${REPRESENTATIVE}` };
      }
      case "agent-requested":
        return { c, key, full: false, reason: "description only: listed in the index (a prompt that matches its description brings it in)" };
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

  const root = folderTree(input.tracked, input.isInstruction);
  const folders = eachFolder(root);
  const cells: CoverageCell[] = [];
  const cellIndex = new Map<string, number>();
  const intern = (cell: CoverageCell): number => {
    const text = JSON.stringify(cell);
    let index = cellIndex.get(text);
    if (index === undefined) {
      index = cells.length;
      cells.push(cell);
      cellIndex.set(text, index);
    }
    return index;
  };
  const states = new Map<string, Record<string, RuleState>>();
  const note = (key: string, agent: string, state: RuleState) => {
    let byAgent = states.get(key);
    if (byAgent === undefined) states.set(key, (byAgent = {}));
    if (RANK[state] > RANK[byAgent[agent] ?? "never"]) byAgent[agent] = state;
  };
  const every = new Map<string, Record<string, number>>();
  const signature = new Map<Folder, string>();

  for (const folder of folders) {
    const file = folder.representative;
    const scoped: Candidate[] = [];
    for (const anchor of ancestorsOf(folder.path)) scoped.push(...(byAnchor.get(anchor) ?? []));
    scoped.sort((a, b) => order.get(a)! - order.get(b)!);
    const applied: Applied[] = [];
    for (const c of scoped) {
      const a = applies(c, c.path === null ? "" : input.anchorOf(c.path), file, folder.own > 0);
      if (a !== null) applied.push(a);
    }
    const context: LoadedContext = { present, workingFolder: "", reads: [file], bytesOf };
    const built = new Map<string, CoverageCell>();
    const seenBy = new Map<string, string[]>();
    for (const profile of input.profiles) {
      const cell: CoverageCell = { tokens: 0, loads: [], adds: [], offers: [], findings: [] };
      const had = new Set<string>();
      const left: Applied[] = [];
      for (const a of applied) {
        const own = loadsThroughAnyPath(profile.loadsItself, a.c, context);
        if (own === null) {
          left.push(a);
          continue;
        }
        had.add(canonical(a.key));
        if (a.full) cell.loads.push({ file: a.key, tokens: a.c.tokens, reason: own });
        else cell.offers.push({ file: a.key, tokens: a.c.tokens, reason: own, by: profile.name });
      }
      // What the hook injects: the rest, one copy of each text (a copy of what the agent has is no news to it).
      let addedChars = 0;
      if (input.integrated.has(profile.name)) {
        for (const a of left) {
          const canon = canonical(a.key);
          if (had.has(canon)) continue;
          had.add(canon);
          if (a.full) {
            cell.adds.push({ file: a.key, tokens: a.c.tokens, reason: a.reason });
            addedChars += a.c.content.length;
          } else cell.offers.push({ file: a.key, tokens: a.c.tokens, reason: a.reason, by: "ctxinject" });
        }
      }
      for (const item of cell.loads) cell.tokens += item.tokens;
      for (const item of cell.adds) cell.tokens += item.tokens;
      for (const item of [...cell.loads, ...cell.adds, ...cell.offers]) {
        const list = seenBy.get(item.file);
        if (list === undefined) seenBy.set(item.file, [profile.name]);
        else list.push(profile.name);
        for (const f of findingsOf.get(item.file) ?? []) if (concerns(f, profile.name)) cell.findings.push(cellFinding(f));
      }
      // A rule of this folder that applies nowhere here (a dead glob) still has its findings shown where it lives.
      for (const c of byAnchor.get(folder.path) ?? []) {
        if (c.path === null || seenBy.get(c.path)?.includes(profile.name)) continue;
        for (const f of findingsOf.get(c.path) ?? []) if (f.kind === "dead-glob" && concerns(f, profile.name)) cell.findings.push(cellFinding(f));
      }
      if (profile.maxChars !== undefined && addedChars > profile.maxChars) {
        cell.findings.push({ severity: "warning", kind: "over-host-cap", file: folder.path === "" ? "." : folder.path, message: `ctxinject adds about ${addedChars} characters here, over ${profile.name}'s cap of ${profile.maxChars}: the weakest are trimmed or listed in the index` });
      }
      for (const a of applied) note(a.key, profile.name, cell.loads.some((i) => i.file === a.key) ? "loads" : cell.adds.some((i) => i.file === a.key) ? "adds" : cell.offers.some((i) => i.file === a.key) ? "offers" : "never");
      built.set(profile.name, cell);
    }
    // What one agent gets and another never sees here, or what none of them sees.
    const names = input.profiles.map((p) => p.name);
    for (const a of applied) {
      if (a.c.path === null) continue;
      const seen = seenBy.get(a.key) ?? [];
      for (const name of names) {
        if (seen.includes(name)) continue;
        built.get(name)!.findings.push(
          seen.length === 0
            ? { severity: "warning", kind: "no-agent-reads", file: a.key, message: `applies here, but none of ${names.join(", ")} reads it (none loads it by itself or has ctxinject's hook)` }
            : { severity: "warning", kind: "not-seen", file: a.key, message: `applies here for ${seen.join(", ")}; ${name} never sees it` },
        );
      }
    }
    const row: Record<string, number> = {};
    for (const name of names) {
      const cell = built.get(name)!;
      cell.findings.sort((x, y) => compareText(x.file, y.file) || (x.line ?? 0) - (y.line ?? 0) || compareText(x.kind, y.kind) || compareText(x.message, y.message));
      row[name] = intern(cell);
    }
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
  for (const child of [root]) walk(child);

  const model: CoverageModel = {
    agents: input.profiles.map((p) => ({ name: p.name, integration: input.integrated.has(p.name) })),
    representative: REPRESENTATIVE_RULE,
    folders: listed,
    cells,
    rules: ruleRows(input, root, matcherOf, states),
  };
  return { model, every };
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
function ruleRows(input: CoverageInput, root: Folder, matcherOf: (c: Candidate) => GlobMatcher, states: Map<string, Record<string, RuleState>>): CoverageRule[] {
  const byPath = new Map<string, Folder>();
  for (const folder of eachFolder(root)) byPath.set(folder.path, folder);
  const files = [...input.tracked].filter((f) => !input.isInstruction(f)).sort(compareText);
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
    const agents: Record<string, RuleState> = {};
    for (const p of input.profiles) agents[p.name] = got[p.name] ?? "never";
    rows.push({ file: c.path, source: c.source, kind: c.kind, files: count, agents });
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
