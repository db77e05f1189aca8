/**
 * The coverage findings a reviewer reads: each finding once over the whole tree, not once per cell, with the files
 * (or folders) it is about listed under it and the agents and folders it shows in. A `not-seen` is one finding per
 * agent (what that agent never sees, file by file), agents that miss the same files said together; a cap is one per
 * agent, its folders listed; a doctor finding is one, whatever the cells it shows in.
 */
import { compareText } from "../rel-path.js";
import type { CellFinding, CoverageModel } from "./model-types.js";
import { SEVERITIES } from "../doctor/finding.js";

export interface SummedFinding {
  severity: CellFinding["severity"];
  kind: string;
  /** The file it is about (with `line`), for a finding on one file. */
  file?: string;
  line?: number;
  message: string;
  /** The agents it concerns, in the model's order. */
  agents: string[];
  /** How many folders it shows in (a collapsed row counts for the folders it stands for). */
  folders: number;
  /** The files (or, for a cap, the folders) it is about, each with the folders it shows in there. */
  under: Array<{ path: string; folders: number }>;
}

interface Acc {
  severity: CellFinding["severity"];
  kind: string;
  file?: string;
  line?: number;
  message: string;
  agents: Set<string>;
  weight: number;
  /** Per file, its folders, in a box: one map lookup per file and folder (the lists run to millions on a large tree). */
  under: Map<string, { folders: number }>;
}

/** How often each finding shows: per agent, and in how many folders (a row counts once, whatever its agents). */
interface Seen {
  byAgent: Map<string, number>;
  folders: number;
  /** The last folder (by its place in the model) counted in `folders`. */
  stamp: number;
}

/** The files a finding shows in most folders first (what a list cut short keeps), then by path. */
const widestFirst = (x: { path: string; folders: number }, y: { path: string; folders: number }) => y.folders - x.folders || compareText(x.path, y.path);

export function sumFindings(model: CoverageModel): SummedFinding[] {
  const names = model.agents.map((a) => a.name);
  // Cells and their findings are shared by the folders alike: counted per finding object first (a 100k-file tree
  // has tens of thousands of folders and a few thousand findings), their files spread once each.
  const seen = new Map<CellFinding, Seen>();
  model.folders.forEach((folder, at) => {
    const weight = 1 + folder.hidden;
    for (const agent of names) {
      for (const f of model.cells[folder.cells[agent]!]!.findings) {
        let s = seen.get(f);
        if (s === undefined) seen.set(f, (s = { byAgent: new Map(), folders: 0, stamp: -1 }));
        s.byAgent.set(agent, (s.byAgent.get(agent) ?? 0) + weight);
        if (s.stamp !== at) {
          s.stamp = at;
          s.folders += weight;
        }
      }
    }
  });
  const acc = new Map<string, Acc>();
  const add = (key: string, f: CellFinding, message: string, agents: Iterable<string>, weight: number, under: readonly string[], onFile = false) => {
    let a = acc.get(key);
    if (a === undefined) {
      a = { severity: f.severity, kind: f.kind, message, agents: new Set(), weight: 0, under: new Map() };
      if (onFile) {
        a.file = f.file;
        if (f.line !== undefined) a.line = f.line;
      }
      acc.set(key, a);
    }
    for (const agent of agents) a.agents.add(agent);
    a.weight += weight;
    for (let i = 0; i < under.length; i++) {
      const box = a.under.get(under[i]!);
      if (box === undefined) a.under.set(under[i]!, { folders: weight });
      else box.folders += weight;
    }
  };
  for (const [f, s] of seen) {
    if (f.kind === "not-seen" || f.kind === "over-host-cap") {
      // One such finding per agent and folder: what each agent misses (or where its cap is passed), summed.
      for (const [agent, weight] of s.byAgent) {
        if (f.kind === "not-seen")
          add(`not-seen\n${agent}`, f, `files that apply there for other agents, never seen by ${agent}`, [agent], weight, f.files ?? [f.file]);
        else
          add(
            `over-host-cap\n${agent}`,
            f,
            `ctxinject adds more than ${agent}'s cap on what a hook adds: the weakest are trimmed or listed in the index`,
            [agent],
            weight,
            [f.file === "." ? "/" : `${f.file}/`],
          );
      }
    } else if (f.kind === "no-agent-reads")
      add(
        "no-agent-reads",
        f,
        `files that apply there, read by none of ${names.join(", ")} (none loads them by itself or has ctxinject's hook)`,
        s.byAgent.keys(),
        s.folders,
        f.files ?? [f.file],
      );
    else add(`${f.kind}\n${f.file}\n${f.line ?? ""}\n${f.severity}\n${f.message}`, f, f.message, s.byAgent.keys(), s.folders, f.files ?? [], true);
  }
  const summed: SummedFinding[] = [...acc.values()].map((a) => ({
    severity: a.severity,
    kind: a.kind,
    ...(a.file !== undefined && { file: a.file }),
    ...(a.line !== undefined && { line: a.line }),
    message: a.message,
    agents: names.filter((n) => a.agents.has(n)),
    folders: a.weight,
    under: [...a.under].map(([path, box]) => ({ path, folders: box.folders })).sort(widestFirst),
  }));
  return mergeAlike(summed, names).sort(
    (x, y) =>
      SEVERITIES.indexOf(x.severity) - SEVERITIES.indexOf(y.severity) ||
      compareText(x.kind, y.kind) ||
      compareText(x.file ?? "", y.file ?? "") ||
      (x.line ?? 0) - (y.line ?? 0) ||
      compareText(x.message, y.message) ||
      compareText(x.agents.join(), y.agents.join()),
  );
}

/**
 * Agents that miss the same files in the same folders (or hit the same cap there) are one finding naming them all;
 * a doctor finding said alike of several files (the same kind, words and agents: a description no prompt matches,
 * in each package's copy of a rule) is one, its files (with their lines) listed under it.
 */
function mergeAlike(findings: SummedFinding[], names: readonly string[]): SummedFinding[] {
  const out: SummedFinding[] = [];
  const byShape = new Map<string, SummedFinding>();
  const byWords = new Map<string, SummedFinding[]>();
  for (const f of findings) {
    if (f.kind !== "not-seen" && f.kind !== "over-host-cap") {
      if (f.file === undefined || f.under.length > 0) {
        out.push(f);
        continue;
      }
      const words = `${f.severity}\n${f.kind}\n${f.message}\n${f.agents.join()}`;
      const same = byWords.get(words);
      if (same === undefined) {
        byWords.set(words, [f]);
        out.push(f);
      } else same.push(f);
      continue;
    }
    const shape = `${f.kind}\n${f.folders}\n${f.under.map((u) => `${u.path}\0${u.folders}`).join("\n")}`;
    const same = byShape.get(shape);
    if (same === undefined) {
      byShape.set(shape, f);
      out.push(f);
    } else same.agents.push(...f.agents);
  }
  for (const f of byShape.values()) {
    if (f.agents.length === 1) continue;
    f.agents.sort((x, y) => names.indexOf(x) - names.indexOf(y));
    const who = f.agents.join(", ");
    f.message =
      f.kind === "not-seen"
        ? `files that apply there for other agents, never seen by ${who}`
        : `ctxinject adds more than each one's cap on what a hook adds, for ${who}: the weakest are trimmed or listed in the index`;
  }
  for (const alike of byWords.values()) {
    if (alike.length === 1) continue;
    const first = alike[0]!;
    first.under = alike.map((f) => ({ path: f.line !== undefined ? `${f.file}:${f.line}` : f.file!, folders: f.folders })).sort(widestFirst);
    first.folders = alike.reduce((n, f) => n + f.folders, 0);
    delete first.file;
    delete first.line;
  }
  return out;
}
