/**
 * `coverage --base REF`: what a change does to what each agent sees — which folders gain or lose which files for
 * which agent, the token delta there, and how many more (or fewer) files each rule reaches per agent. Both sides
 * are coverage models of the same shape (core/coverage/model.ts); this compares, it decides nothing again.
 */
import { compareText, dirOf } from "../rel-path.js";
import type { Coverage, CoverageCell, RuleState } from "./model.js";

interface FolderChange {
  folder: string;
  agent: string;
  gained: string[];
  lost: string[];
  /** Tokens in full here, after minus before. */
  tokens: number;
}

interface RuleChange {
  file: string;
  /** Per agent: the files it reaches that agent in, before and after (0 where the agent never sees it). */
  agents: Record<string, { before: number; after: number; state: RuleState }>;
}

export interface CoverageDiff {
  ref: string;
  /** Only where the change differs from the parent folder's: a rule that reaches a whole package is said once. */
  folders: FolderChange[];
  rules: RuleChange[];
}

const EMPTY: CoverageCell = { tokens: 0, loads: [], adds: [], offers: [], findings: [] };

export function coverageDiff(ref: string, before: Coverage, after: Coverage): CoverageDiff {
  const agents = after.model.agents.map((a) => a.name);
  // Both sides show the same agents, in the same order (every's lists follow it).
  const cellOf = (side: Coverage, folder: string, agent: number): CoverageCell => {
    const index = side.every.get(folder)?.[agent];
    return index === undefined ? EMPTY : side.model.cells[index]!;
  };
  const seen = (side: Coverage, cell: CoverageCell) => new Set([...cell.loads, ...cell.adds].map((i) => side.model.items[i]!.file));
  const folders = [...new Set([...before.every.keys(), ...after.every.keys()])].sort(compareText);
  const said = new Map<string, string>();
  const changes: FolderChange[] = [];
  for (const folder of folders) {
    for (let at = 0; at < agents.length; at++) {
      const agent = agents[at]!;
      const was = cellOf(before, folder, at);
      const now = cellOf(after, folder, at);
      const had = seen(before, was);
      const has = seen(after, now);
      const gained = [...has].filter((f) => !had.has(f)).sort(compareText);
      const lost = [...had].filter((f) => !has.has(f)).sort(compareText);
      const tokens = now.tokens - was.tokens;
      const key = `${agent}\n${gained.join("\0")}\n${lost.join("\0")}\n${tokens}`;
      said.set(`${folder}\n${agent}`, key);
      if (gained.length === 0 && lost.length === 0 && tokens === 0) continue;
      if (folder !== "" && said.get(`${dirOf(folder)}\n${agent}`) === key) continue;
      changes.push({ folder, agent, gained, lost, tokens });
    }
  }
  const rulesBefore = new Map(before.model.rules.map((r) => [r.file, r]));
  const rulesAfter = new Map(after.model.rules.map((r) => [r.file, r]));
  const rules: RuleChange[] = [];
  for (const file of [...new Set([...rulesBefore.keys(), ...rulesAfter.keys()])].sort(compareText)) {
    const b = rulesBefore.get(file);
    const a = rulesAfter.get(file);
    const per: RuleChange["agents"] = {};
    let differs = false;
    for (const agent of agents) {
      // An agent that has the rule's text through another file gets nothing new from this one.
      const reach = (r: typeof a) => (r === undefined || (r.agents[agent] ?? "never") === "never" || r.agents[agent] === "copy" ? 0 : r.files);
      const entry = { before: reach(b), after: reach(a), state: a?.agents[agent] ?? "never" };
      if (entry.before !== entry.after) differs = true;
      per[agent] = entry;
    }
    if (differs) rules.push({ file, agents: per });
  }
  return { ref, folders: changes, rules };
}

/** One line per rule: "makes X apply to 240 more files for cursor; claude-code never sees it". */
export function ruleChangeLine(change: RuleChange): string {
  const groups = new Map<number, string[]>();
  const never: string[] = [];
  for (const [agent, { before, after, state }] of Object.entries(change.agents)) {
    if (state === "never" && after === 0 && before === 0) never.push(agent);
    const delta = after - before;
    if (delta === 0) continue;
    const list = groups.get(delta);
    if (list === undefined) groups.set(delta, [agent]);
    else list.push(agent);
  }
  const parts = [...groups]
    .sort((x, y) => y[0] - x[0])
    .map(([delta, who]) => `${Math.abs(delta)} ${delta > 0 ? "more" : "fewer"} file${Math.abs(delta) === 1 ? "" : "s"} for ${who.join(", ")}`);
  const tail = never.length > 0 ? `; ${never.join(", ")} never ${never.length === 1 ? "sees" : "see"} it` : "";
  return `this change makes ${change.file} apply to ${parts.join(", ")}${tail}`;
}
