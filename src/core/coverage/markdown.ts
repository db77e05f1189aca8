/**
 * `coverage --format markdown`: what a reviewer reads in a pull request comment or a CI job summary. Not every
 * cell (14 agents x every folder is a table no one reads): without `--base`, a compact summary (what each group of
 * agents has at the top, then only the folders where something changes for some agent, with the change); with it,
 * what the change does. Then each finding once, the files it is about listed under it.
 */
import type { CoverageCell, CoverageFolder, CoverageModel } from "./model.js";
import { compareText, dirOf } from "../rel-path.js";
import { ruleChangeLine, type CoverageDiff } from "./diff.js";
import { sumFindings, type SummedFinding } from "./finding-summary.js";
import { gateName, gateText } from "../text-gate.js";

/** A PR comment stays readable (and under GitHub's 65,536 characters): past this many lines a list says how many more. */
const MARKDOWN_MAX_ROWS = 60;
/** Files named on one line or under one finding before "and N more". */
const MAX_FILES = 12;

/** A name in code: gated as a name first (its line breaks escaped), so a tracked path cannot start a line of its own. */
const code = (text: string) => `\`${gateName(text).replace(/`/g, "'").replace(/\|/g, "\\|")}\``;
const folderName = (path: string) => (path === "" ? "/" : `${path}/`);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function fileList(files: readonly string[], max = MAX_FILES): string {
  const shown = files.slice(0, max).map(code).join(", ");
  return files.length > max ? `${shown} and ${files.length - max} more` : shown;
}

/** Each name is gated where it is put in code (`code`); the report then passes the gate whole for anything else. */
export function renderCoverageMarkdown(model: CoverageModel, diff?: CoverageDiff): string {
  const lines = ["## ctxinject coverage", "", overview(model)];
  if (diff !== undefined) {
    lines.push(...diffSection(diff, model));
    const findings = findingLines(model);
    lines.push("", `<details><summary>${findings.title} over the whole tree</summary>`, "", ...findings.lines, "", "</details>");
  } else {
    lines.push(...topSection(model), ...changeSection(model), ...neverSection(model));
    const findings = findingLines(model);
    lines.push("", `### ${findings.title}`, "", ...findings.lines);
  }
  return gateText(fitted(lines.join("\n"))).text;
}

/** Under a GitHub comment's 65,536 characters, whatever the tree: cut at a line, said, an open <details> closed. */
export const MARKDOWN_MAX_CHARS = 60_000;

function fitted(text: string): string {
  if (text.length <= MARKDOWN_MAX_CHARS) return `${text}\n`;
  let cut = text.slice(0, text.lastIndexOf("\n", MARKDOWN_MAX_CHARS - 400));
  const open = cut.lastIndexOf("<details>") > cut.lastIndexOf("</details>");
  cut += `\n\nCut here at ${cut.length} characters (a pull request comment holds 65,536): \`ctxinject coverage --format html\` shows it all.`;
  return `${cut}${open ? "\n\n</details>" : ""}\n`;
}

/**
 * A group of agents in few words when it is long: every agent, every agent with the hook (and some others), every
 * agent but one or two; else their names.
 */
function agentGroup(agents: readonly string[], model: CoverageModel): string {
  if (agents.length <= 3) return agents.join(", ");
  const all = model.agents.map((a) => a.name);
  if (agents.length === all.length) return "every agent";
  const set = new Set(agents);
  const hooked = model.agents.filter((a) => a.integration).map((a) => a.name);
  if (hooked.length > 3 && hooked.every((h) => set.has(h))) {
    const others = agents.filter((a) => !hooked.includes(a));
    return `every agent with the hook${others.length > 0 ? ` and ${others.join(", ")}` : ""}`;
  }
  const missing = all.filter((a) => !set.has(a));
  return missing.length <= 2 ? `every agent but ${missing.join(", ")}` : agents.join(", ");
}

function overview(model: CoverageModel): string {
  const hooked = model.agents.filter((a) => a.integration).map((a) => a.name);
  const bare = model.agents.filter((a) => !a.integration).map((a) => a.name);
  const folders = model.folders.reduce((n, f) => n + 1 + f.hidden, 0);
  const files = model.folders[0]?.files ?? 0;
  const parts = [`${plural(model.agents.length, "agent")} over ${plural(folders, "folder")} (${files} files).`];
  if (hooked.length > 0) parts.push(`With ctxinject's hook: ${hooked.join(", ")}.`);
  if (bare.length > 0) parts.push(`Without a hook (only what they load by themselves): ${bare.join(", ")}.`);
  return parts.join(" ");
}

/** The files an agent has in full in a cell (what it loads and what ctxinject adds). */
const filesOf = (model: CoverageModel, ids: readonly number[]) => ids.map((i) => model.items[i]!.file);

/** At the top: the agents grouped by what they have there, each group once. */
function topSection(model: CoverageModel): string[] {
  const top = model.folders[0];
  if (top === undefined) return [];
  const groups = new Map<string, { agents: string[]; cell: CoverageCell }>();
  for (const { name } of model.agents) {
    const cell = model.cells[top.cells[name]!]!;
    const key = [filesOf(model, cell.loads).join("\0"), filesOf(model, cell.adds).join("\0"), filesOf(model, cell.offers).join("\0")].join("\n");
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { agents: [name], cell });
    else group.agents.push(name);
  }
  const lines = [
    "",
    `### At the top (${code("/")}, judged by ${code(top.representative)})`,
    "",
    "| agents | loads by itself | ctxinject adds | offered | tokens |",
    "|---|---|---|---:|---:|",
  ];
  for (const { agents, cell } of groups.values()) {
    lines.push(
      `| ${agentGroup(agents, model)} | ${fileList(filesOf(model, cell.loads)) || "-"} | ${fileList(filesOf(model, cell.adds)) || "-"} | ${cell.offers.length} | ${cell.tokens} |`,
    );
  }
  return lines;
}

/** The nearest folder above `path` the model shows (a collapsed folder's parent row is shown). */
function parentRow(rows: ReadonlyMap<string, CoverageFolder>, path: string): CoverageFolder | undefined {
  for (let p = path; p !== ""; ) {
    p = dirOf(p);
    const row = rows.get(p);
    if (row !== undefined) return row;
  }
  return undefined;
}

/**
 * Whether two cells hold the same files in full (whatever the reasons): by numbers, marking one cell's files and
 * checking the other's, no list or set made. Most folders change nothing for most agents, but their cells differ
 * (a finding naming the folder's files), so this runs for nearly every folder and agent.
 */
function sameFilesTest(model: CoverageModel): (a: CoverageCell, b: CoverageCell) => boolean {
  const ids = new Map<string, number>();
  const fileOf = model.items.map((item) => {
    let id = ids.get(item.file);
    if (id === undefined) ids.set(item.file, (id = ids.size));
    return id;
  });
  const mark = new Int32Array(ids.size);
  let stamp = 0;
  return (a, b) => {
    const inA = (stamp += 2) - 1;
    let count = 0;
    for (const list of [a.loads, a.adds])
      for (let i = 0; i < list.length; i++) {
        const f = fileOf[list[i]!]!;
        if (mark[f] !== inA) {
          mark[f] = inA;
          count++;
        }
      }
    let matched = 0;
    for (const list of [b.loads, b.adds])
      for (let i = 0; i < list.length; i++) {
        const f = fileOf[list[i]!]!;
        if (mark[f] === inA) {
          mark[f] = stamp;
          matched++;
        } else if (mark[f] !== stamp) return false;
      }
    return matched === count;
  };
}

/** Each folder where some agent has other files than in the folder above: who gains and loses what, agents alike together. */
function changeSection(model: CoverageModel): string[] {
  const rows = new Map(model.folders.map((f) => [f.path, f]));
  const seen = (cell: CoverageCell) => new Set(filesOf(model, [...cell.loads, ...cell.adds]));
  const sameFiles = sameFilesTest(model);
  const out: string[] = [];
  let more = 0;
  for (const folder of model.folders) {
    const parent = parentRow(rows, folder.path);
    if (parent === undefined) continue;
    // Past the lines shown, only counted: whether some agent's files change here.
    if (out.length >= MARKDOWN_MAX_ROWS) {
      if (model.agents.some(({ name }) => !sameFiles(model.cells[folder.cells[name]!]!, model.cells[parent.cells[name]!]!))) more++;
      continue;
    }
    const groups = new Map<string, { agents: string[]; gained: string[]; lost: string[]; tokens: number }>();
    for (const { name } of model.agents) {
      const now = model.cells[folder.cells[name]!]!;
      const was = model.cells[parent.cells[name]!]!;
      if (now === was || sameFiles(now, was)) continue;
      const has = seen(now);
      const had = seen(was);
      const gained = [...has].filter((f) => !had.has(f)).sort(compareText);
      const lost = [...had].filter((f) => !has.has(f)).sort(compareText);
      if (gained.length === 0 && lost.length === 0) continue;
      const tokens = now.tokens - was.tokens;
      const key = `${gained.join("\0")}\n${lost.join("\0")}\n${tokens}`;
      const group = groups.get(key);
      if (group === undefined) groups.set(key, { agents: [name], gained, lost, tokens });
      else group.agents.push(name);
    }
    if (groups.size === 0) continue;
    const changes = [...groups.values()].map((g) => {
      const what = [g.gained.length > 0 ? `+ ${fileList(g.gained)}` : "", g.lost.length > 0 ? `- ${fileList(g.lost)}` : ""].filter((s) => s !== "").join("; ");
      return `${agentGroup(g.agents, model)}: ${what} (${g.tokens >= 0 ? "+" : ""}${g.tokens} tok)`;
    });
    const alike = folder.hidden > 0 ? `, +${folder.hidden} alike below` : "";
    out.push(`- ${code(folderName(folder.path))} (${plural(folder.files, "file")}${alike}): ${changes.join(" · ")}`);
  }
  if (out.length === 0) return ["", "### Where it changes", "", "Every folder below the top gives each agent what the top does."];
  const lines = [
    "",
    "### Where it changes",
    "",
    "Only the folders where some agent has other files than in the folder above (+ gains, - loses, the tokens' change):",
    "",
    ...out,
  ];
  if (more > 0) lines.push("", `${more} more folders change: see \`ctxinject coverage --format html\`.`);
  return lines;
}

/** Rules some agents never see (an agent without a hook is not told it misses what no agent loads by itself). */
function neverSection(model: CoverageModel): string[] {
  const agents = model.agents.map((a) => a.name);
  const hooked = new Set(model.agents.filter((a) => a.integration).map((a) => a.name));
  // A rule whose text an agent gets through another file is no news to it: said, not listed as never seen.
  const copiesText = (r: CoverageModel["rules"][number]) => {
    const byFile = new Map<string, string[]>();
    for (const a of agents) {
      const via = r.copies?.[a];
      if (via === undefined) continue;
      const list = byFile.get(via);
      if (list === undefined) byFile.set(via, [a]);
      else list.push(a);
    }
    return [...byFile].map(([via, who]) => `; ${who.join(", ")} ${who.length === 1 ? "gets" : "get"} its text through ${code(via)}`).join("");
  };
  const lines: string[] = [];
  let more = 0;
  for (const r of model.rules) {
    if (r.files === 0) continue;
    const native = agents.some((a) => r.agents[a] === "loads" || (!hooked.has(a) && r.agents[a] !== "never"));
    const missing = agents.filter((a) => r.agents[a] === "never" && (native || hooked.has(a)));
    if (missing.length === 0 || missing.length === agents.length || !agents.some((a) => r.agents[a] !== "never")) continue;
    if (lines.length >= MARKDOWN_MAX_ROWS) {
      more++;
      continue;
    }
    lines.push(`- ${code(r.file)} (${plural(r.files, "file")}): never seen by ${missing.join(", ")}${copiesText(r)}`);
  }
  if (lines.length === 0) return [];
  return ["", "### Rules some agents never see", "", ...lines, ...(more > 0 ? ["", `${more} more rules: see \`--format json\`.`] : [])];
}

function diffSection(diff: CoverageDiff, model: CoverageModel): string[] {
  const lines = ["", `### What this change does (against ${code(diff.ref)})`, ""];
  if (diff.rules.length === 0 && diff.folders.length === 0) {
    lines.push("No agent sees anything else.");
    return lines;
  }
  for (const r of diff.rules.slice(0, MARKDOWN_MAX_ROWS)) lines.push(`- ${ruleChangeLine(r).replace(r.file, code(r.file))}`);
  if (diff.rules.length > MARKDOWN_MAX_ROWS) lines.push(`- and ${diff.rules.length - MARKDOWN_MAX_ROWS} more rules: see \`--format json\``);
  if (diff.folders.length === 0) return lines;
  // One row per folder and change, the agents that change alike there together.
  const rows = new Map<string, { folder: string; agents: string[]; gained: string[]; lost: string[]; tokens: number }>();
  for (const c of diff.folders) {
    const key = `${c.folder}\n${c.gained.join("\0")}\n${c.lost.join("\0")}\n${c.tokens}`;
    const row = rows.get(key);
    if (row === undefined) rows.set(key, { folder: c.folder, agents: [c.agent], gained: c.gained, lost: c.lost, tokens: c.tokens });
    else row.agents.push(c.agent);
  }
  lines.push("", "| folder | agents | gains | loses | tokens |", "|---|---|---|---|---:|");
  const all = [...rows.values()];
  for (const r of all.slice(0, MARKDOWN_MAX_ROWS))
    lines.push(
      `| ${code(folderName(r.folder))} | ${agentGroup(r.agents, model)} | ${fileList(r.gained)} | ${fileList(r.lost)} | ${r.tokens > 0 ? "+" : ""}${r.tokens} |`,
    );
  if (all.length > MARKDOWN_MAX_ROWS) lines.push("", `${all.length - MARKDOWN_MAX_ROWS} more changes: see \`--format json\`.`);
  return lines;
}

/** Each finding once, its files listed under it; the count is of findings, not of the files they name. */
function findingLines(model: CoverageModel): { title: string; lines: string[] } {
  const findings = sumFindings(model);
  const counts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  const said = (["error", "warning", "info"] as const).filter((s) => counts[s] > 0).map((s) => (s === "info" ? `${counts.info} info` : plural(counts[s], s)));
  const title = findings.length === 0 ? "No findings" : `${plural(findings.length, "finding")} (${said.join(", ")})`;
  const lines: string[] = [];
  for (const f of findings.slice(0, MARKDOWN_MAX_ROWS)) lines.push(...findingText(f, model));
  if (findings.length > MARKDOWN_MAX_ROWS) lines.push(`- and ${findings.length - MARKDOWN_MAX_ROWS} more: see \`ctxinject doctor\` and \`--format json\``);
  return { title, lines };
}

function findingText(f: SummedFinding, model: CoverageModel): string[] {
  const where = f.file !== undefined ? ` ${code(`${f.file}${f.line !== undefined ? `:${f.line}` : ""}`)}` : "";
  const who = f.kind === "not-seen" || f.kind === "no-agent-reads" || f.kind === "over-host-cap" ? "" : `${agentGroup(f.agents, model)}; `;
  const head = `- **${f.severity}** ${code(f.kind)}${where}: ${f.message} (${who}${plural(f.folders, "folder")})`;
  const under = f.under.slice(0, MAX_FILES).map((u) => `  - ${code(u.path)}${f.under.length > 1 ? ` (${plural(u.folders, "folder")})` : ""}`);
  if (f.under.length > MAX_FILES) under.push(`  - and ${f.under.length - MAX_FILES} more`);
  return [head, ...under];
}
