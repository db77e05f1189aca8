import type { ImportNode } from "../parse/imports.js";
import type { AgentView } from "../agents/view.js";
import { describeOrigin, everySettingOrigin, type SettingOrigin } from "../config-layers.js";
import { gateName, namesNeedGate } from "../text-gate.js";
import type { Candidate, Status } from "../types.js";

interface Paint {
  green: (s: string) => string;
  yellow: (s: string) => string;
  red: (s: string) => string;
  dim: (s: string) => string;
  bold: (s: string) => string;
}

export const plain: Paint = { green: (s) => s, yellow: (s) => s, red: (s) => s, dim: (s) => s, bold: (s) => s };

const tone: Record<Status, keyof Paint> = {
  included: "green",
  trimmed: "yellow",
  "over-budget": "yellow",
  overwritten: "dim",
  duplicate: "dim",
  unmatched: "dim",
  "below-threshold": "dim",
  manual: "dim",
  "already-injected": "dim",
  disabled: "dim",
  invalid: "red",
};

/** Columns of the text table: explain's output is read in a terminal, and nothing of it runs past this. */
const EXPLAIN_WIDTH = 100;
/** Where the lines under a row start, and where a wrapped line goes on. */
const UNDER = 6;
const GOES_ON = 8;

/** The marks of the `--as` column, each explained once above the table. */
const MARKS = {
  loads: (agent: string) => `${agent} loads it by itself (how: under the row)`,
  skips: (agent: string) => `${agent}'s own settings leave it out (why: under the row)`,
  "-": (agent: string) => `${agent} does not load it by itself`,
} as const;

const markOf = (view: AgentView): keyof typeof MARKS => (view.loads ? "loads" : view.skipped ? "skips" : "-");

/**
 * Every candidate in final order, then a count per status. A row is its number, status, tokens and id; under it,
 * its priority, kind and source with the reason, wrapped to EXPLAIN_WIDTH (a path longer than a line is the one
 * thing that may run past it, whole). With an agent's view (`--as`), a column says whether that agent loads each by
 * itself, a legend says what its marks mean, and a line under the row says how it loads it or why it leaves it out.
 */
export function renderExplainText(
  unnamed: Candidate[],
  paint: Paint = plain,
  unnamedViews?: AgentView[],
  settings?: Record<string, SettingOrigin>,
  width = EXPLAIN_WIDTH,
): string {
  const { candidates, views } = withNamesGated(unnamed, unnamedViews);
  const agent = views ? (views[0]?.agent ?? "agent") : undefined;
  const head = ["#", "status", "tokens", ...(agent !== undefined ? [agent] : []), "id"];
  const rows = candidates.map((c, i) => [String(i + 1), c.status, String(c.tokens), ...(views ? [markOf(views[i]!)] : []), c.id]);
  const widths = head.map((h, col) => Math.max(h.length, ...rows.map((r) => r[col]!.length)));
  const cells = (row: readonly string[]) =>
    row
      .slice(0, -1)
      .map((cell, col) => (col === 2 ? cell.padStart(widths[col]!) : cell.padEnd(widths[col]!)))
      .join("  ");
  // The id ends the row's line; one too long to end it begins the next line instead, whole.
  const rowLines = (row: readonly string[]) => {
    const front = cells(row);
    const id = row.at(-1)!;
    return front.length + 2 + id.length <= width ? [`${front}  ${id}`] : [front.trimEnd(), `${" ".repeat(UNDER)}${id}`];
  };
  const under = (text: string, indent = UNDER) => wrap(text, width, indent, indent + GOES_ON - UNDER);

  const lines: string[] = [];
  if (agent !== undefined) {
    const used = new Set(views!.map(markOf));
    const legend = (Object.keys(MARKS) as Array<keyof typeof MARKS>).filter((m) => used.has(m)).map((m) => `${m} = ${MARKS[m](agent)}`);
    lines.push(...wrap(`${agent} column: ${legend.join("; ")}`, width, 0, 2).map(paint.dim), "");
  }
  lines.push(...rowLines(head).map(paint.bold), ...under("priority · kind · source — reason").map(paint.bold));
  if (agent !== undefined) lines.push(...under(`${agent}: how it loads it, or why its settings leave it out`).map(paint.bold));
  rows.forEach((row, i) => {
    const c = candidates[i]!;
    const color = paint[tone[c.status]];
    const view = views?.[i];
    lines.push(...rowLines(row).map(color), ...under(`${c.priority} · ${c.kind} · ${c.source} — ${c.reason}`).map(color));
    if (view && (view.loads || view.skipped)) lines.push(...under(`${view.agent}: ${view.reason}`).map(color));
    for (const alias of c.aliases ?? []) lines.push(...under(`↳ also reached as ${alias} (same file, through a symlink)`).map(paint.dim));
    for (const [depth, path] of importLines(c.imports ?? [], 0)) lines.push(...under(`↳ imports ${path}`, UNDER + 2 * depth).map(paint.dim));
  });
  const counts = new Map<Status, number>();
  for (const c of candidates) counts.set(c.status, (counts.get(c.status) ?? 0) + 1);
  const summary = [...counts].map(([status, n]) => `${n} ${status}`).join(", ");
  lines.push("", ...wrap(`${candidates.length} candidates${summary ? `: ${summary}` : ""}`, width, 0, 2));
  if (settings) lines.push("", ...settingLines(settings, paint, width));
  return `${lines.join("\n")}\n`;
}

/**
 * `text` in lines of at most `width` columns, broken at spaces: the first line indented by `first`, the rest by
 * `rest`. A word longer than a line (a long path) is never broken: it takes a line of its own and runs past.
 */
export function wrap(text: string, width: number, first: number, rest: number): string[] {
  const lines: string[] = [];
  let line = " ".repeat(first);
  let empty = true;
  for (const word of text.split(" ")) {
    // Spaces inside a line are kept (aligned columns); at a break they go.
    if (word === "" && empty) continue;
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = " ".repeat(rest);
      empty = true;
    }
    line += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}

/** The settings not at their default, each with where it came from; the rest in one line. */
function settingLines(settings: Record<string, SettingOrigin>, paint: Paint, width: number): string[] {
  const all = everySettingOrigin(settings);
  const shown = Object.entries(all).filter(([, origin]) => origin.from !== "default" || origin.ignored);
  const rest = Object.keys(all).length - shown.length;
  if (shown.length === 0) return [paint.dim("settings: all defaults (no config file, no flag)")];
  const keys = Math.max(...shown.map(([key]) => key.length));
  return [
    paint.bold("settings"),
    ...shown.flatMap(([key, origin]) => wrap(`${key.padEnd(keys)}  ${describeOrigin(origin)}`, width, 2, keys + 4)),
    paint.dim(`  ${rest} other${rest === 1 ? "" : "s"}: default`),
  ];
}

export function renderExplainJson(unnamed: Candidate[], unnamedViews?: AgentView[], settings?: Record<string, SettingOrigin>): string {
  const { candidates, views } = withNamesGated(unnamed, unnamedViews);
  const value = {
    candidates: candidates.map((c, i) => ({
      source: c.source,
      id: c.id,
      priority: c.priority,
      kind: c.kind,
      path: c.path,
      tokens: c.tokens,
      status: c.status,
      reason: c.reason,
      ...(c.globs.length > 0 && { globs: c.globs }),
      ...(c.description !== null && { description: c.description }),
      ...(c.imports && c.imports.length > 0 && { imports: c.imports }),
      ...(c.aliases && { aliases: c.aliases }),
      ...(views?.[i] && { agent: { name: views[i]!.agent, loads: views[i]!.loads, reason: views[i]!.reason, ...(views[i]!.skipped && { skipped: true }) } }),
    })),
    // Every setting by dotted key: { from: default | user | repository | flag, file?, ignored? }.
    ...(settings && { settings: everySettingOrigin(settings) }),
  };
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The import tree under a candidate's row, depth first: each import with how deep it is. */
function importLines(nodes: ImportNode[], depth: number): Array<[depth: number, path: string]> {
  return nodes.flatMap((n) => [[depth, n.path] as [number, string], ...importLines(n.imports, depth + 1)]);
}

/**
 * Files' names and the reasons that quote them pass the gate (core/text-gate.ts) before they are shown: tested
 * together once, copied only when one needs it.
 */
function withNamesGated(candidates: Candidate[], views?: AgentView[]): { candidates: Candidate[]; views?: AgentView[] } {
  const names: string[] = [];
  const add = (nodes: ImportNode[]) => {
    for (const n of nodes) {
      names.push(n.path);
      add(n.imports);
    }
  };
  for (const c of candidates) {
    names.push(c.source, c.id, c.path ?? "", c.reason, ...(c.aliases ?? []));
    add(c.imports ?? []);
  }
  for (const v of views ?? []) names.push(v.reason);
  if (!namesNeedGate(names)) return views === undefined ? { candidates } : { candidates, views };
  const gateImports = (nodes: ImportNode[]): ImportNode[] => nodes.map((n) => ({ path: gateName(n.path), imports: gateImports(n.imports) }));
  const gated = candidates.map((c): Candidate => {
    const out: Candidate = {
      ...c,
      source: gateName(c.source),
      id: gateName(c.id),
      path: c.path === null ? null : gateName(c.path),
      reason: gateName(c.reason),
    };
    if (c.aliases !== undefined) out.aliases = c.aliases.map(gateName);
    if (c.imports !== undefined) out.imports = gateImports(c.imports);
    return out;
  });
  return views === undefined ? { candidates: gated } : { candidates: gated, views: views.map((v) => ({ ...v, reason: gateName(v.reason) })) };
}
