import type { ImportNode } from "../parse/imports.js";
import type { AgentView } from "../agents/view.js";
import { describeOrigin, everySettingOrigin, type SettingOrigin } from "../config-layers.js";
import type { Candidate, Status } from "../types.js";

export interface Paint {
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

const COLUMNS = ["#", "status", "priority", "kind", "tokens", "source", "id", "reason"] as const;

/**
 * A table of every candidate in final order, then a count per status. With an agent's view (`--as`), a column says
 * whether that agent loads each by itself, and the reason says why.
 */
export function renderExplainText(candidates: Candidate[], paint: Paint = plain, views?: AgentView[], settings?: Record<string, SettingOrigin>): string {
  const columns: readonly string[] = views ? [...COLUMNS.slice(0, -1), views[0]?.agent ?? "agent", "reason"] : COLUMNS;
  const rows = candidates.map((c, i) => {
    const base = [String(i + 1), c.status, c.priority, c.kind, String(c.tokens), c.source, c.id];
    const view = views?.[i];
    return view ? [...base, view.loads ? "loads" : "-", view.loads ? `${c.reason} · ${view.reason}` : c.reason] : [...base, c.reason];
  });
  const widths = columns.map((h, col) => Math.max(h.length, ...rows.map((r) => r[col]!.length)));
  const pad = (cells: readonly string[]) =>
    cells.map((cell, col) => (col === cells.length - 1 ? cell : cell.padEnd(widths[col]!))).join("  ");
  const lines = [paint.bold(pad(columns))];
  rows.forEach((row, i) => {
    const candidate = candidates[i]!;
    lines.push(paint[tone[candidate.status]](pad(row)));
    const indent = " ".repeat(widths.slice(0, 6).reduce((sum, w) => sum + w + 2, 0));
    for (const alias of candidate.aliases ?? []) lines.push(paint.dim(`${indent}↳ also reached as ${alias} (same file, through a symlink)`));
    for (const line of importLines(candidate.imports ?? [], 0)) lines.push(paint.dim(`${indent}${line}`));
  });
  const counts = new Map<Status, number>();
  for (const c of candidates) counts.set(c.status, (counts.get(c.status) ?? 0) + 1);
  const summary = [...counts].map(([status, n]) => `${n} ${status}`).join(", ");
  lines.push("", `${candidates.length} candidates${summary ? `: ${summary}` : ""}`);
  if (settings) lines.push("", ...settingLines(settings, paint));
  return `${lines.join("\n")}\n`;
}

/** The settings not at their default, each with where it came from; the rest in one line. */
function settingLines(settings: Record<string, SettingOrigin>, paint: Paint): string[] {
  const all = everySettingOrigin(settings);
  const shown = Object.entries(all).filter(([, origin]) => origin.from !== "default" || origin.ignored);
  const rest = Object.keys(all).length - shown.length;
  if (shown.length === 0) return [paint.dim("settings: all defaults (no config file, no flag)")];
  const width = Math.max(...shown.map(([key]) => key.length));
  return [
    paint.bold("settings"),
    ...shown.map(([key, origin]) => `  ${key.padEnd(width)}  ${describeOrigin(origin)}`),
    paint.dim(`  ${rest} other${rest === 1 ? "" : "s"}: default`),
  ];
}

export function renderExplainJson(candidates: Candidate[], views?: AgentView[], settings?: Record<string, SettingOrigin>): string {
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
      ...(views?.[i] && { agent: { name: views[i]!.agent, loads: views[i]!.loads, reason: views[i]!.reason } }),
    })),
    // Every setting by dotted key: { from: default | user | repository | flag, file?, ignored? }.
    ...(settings && { settings: everySettingOrigin(settings) }),
  };
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The import tree under a candidate's row: `↳ @AGENTS.md`, nested ones indented. */
function importLines(nodes: ImportNode[], depth: number): string[] {
  return nodes.flatMap((n) => [`${"  ".repeat(depth)}↳ imports ${n.path}`, ...importLines(n.imports, depth + 1)]);
}
