/** `coverage --format markdown`: a compact table for a pull request comment or a CI job summary. */
import type { CoverageCell, CoverageModel } from "./model.js";
import { ruleChangeLine, type CoverageDiff } from "./diff.js";

/** A PR comment stays readable: past this many folders the table says how many more the HTML shows. */
export const MARKDOWN_MAX_ROWS = 60;

const code = (text: string) => `\`${text.replace(/`/g, "'").replace(/\|/g, "\\|")}\``;
const cellText = (cell: CoverageCell) => {
  const warnings = warningCount(cell);
  return `${cell.loads.length}+${cell.adds.length} files, ${cell.tokens} tok${warnings > 0 ? `, ${warnings} warn` : ""}`;
};

/** A finding that sums up several files counts once per file, as one finding per file would. */
export function warningCount(cell: CoverageCell): number {
  let n = 0;
  for (const f of cell.findings) if (f.severity !== "info") n += f.files?.length ?? 1;
  return n;
}

export function renderCoverageMarkdown(model: CoverageModel, diff?: CoverageDiff): string {
  const agents = model.agents.map((a) => a.name);
  const lines = ["## ctxinject coverage", ""];
  lines.push("Each cell: files the agent loads itself + files ctxinject adds (with its hook), the tokens of both, and warnings.", "");
  lines.push(`| folder | files | ${agents.map((a) => `${a}${model.agents.find((x) => x.name === a)!.integration ? "" : " (no hook)"}`).join(" | ")} |`);
  lines.push(`|---|---:|${agents.map(() => "---").join("|")}|`);
  for (const folder of model.folders.slice(0, MARKDOWN_MAX_ROWS)) {
    const name = `${folder.path === "" ? "/" : `${folder.path}/`}${folder.hidden > 0 ? ` (+${folder.hidden} alike)` : ""}`;
    lines.push(`| ${code(name)} | ${folder.files} | ${agents.map((a) => cellText(model.cells[folder.cells[a]!]!)).join(" | ")} |`);
  }
  if (model.folders.length > MARKDOWN_MAX_ROWS) lines.push("", `${model.folders.length - MARKDOWN_MAX_ROWS} more folders: see \`ctxinject coverage --format html\`.`);
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
  const never = model.rules.filter((r) => r.files > 0 && agents.some((a) => r.agents[a] === "never") && agents.some((a) => r.agents[a] !== "never"));
  if (never.length > 0) {
    lines.push("", "### Rules some agents never see", "");
    for (const r of never.slice(0, MARKDOWN_MAX_ROWS)) {
      const missing = agents.filter((a) => r.agents[a] === "never");
      lines.push(`- ${code(r.file)} (${r.files} file${r.files === 1 ? "" : "s"}): never seen by ${missing.join(", ")}${copiesText(r)}`);
    }
  }
  if (diff !== undefined) {
    lines.push("", `### What this change does (against ${code(diff.ref)})`, "");
    if (diff.rules.length === 0 && diff.folders.length === 0) lines.push("No agent sees anything else.");
    for (const r of diff.rules) lines.push(`- ${ruleChangeLine(r).replace(r.file, code(r.file))}`);
    if (diff.folders.length > 0) {
      lines.push("", "| folder | agent | gains | loses | tokens |", "|---|---|---|---|---:|");
      for (const c of diff.folders.slice(0, MARKDOWN_MAX_ROWS)) {
        lines.push(`| ${code(c.folder === "" ? "/" : `${c.folder}/`)} | ${c.agent} | ${c.gained.map(code).join(", ")} | ${c.lost.map(code).join(", ")} | ${c.tokens > 0 ? "+" : ""}${c.tokens} |`);
      }
      if (diff.folders.length > MARKDOWN_MAX_ROWS) lines.push("", `${diff.folders.length - MARKDOWN_MAX_ROWS} more changes: see \`--format json\`.`);
    }
  }
  return `${lines.join("\n")}\n`;
}
