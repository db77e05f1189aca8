import { atLeast, diagnose, SEVERITIES, type Finding, type Severity } from "../../core/doctor/index.js";
import { hookCommandFindings } from "../../io/host-setup/hook-command-check.js";
import { renderGithub, renderSarif } from "../../core/doctor/formats.js";
import { lazyRequire } from "../../io/lazy-node.js";
import { readDoctorTree } from "../../io/trees/doctor-tree.js";
import { linearEngine } from "../../io/linear-regexp.js";
import { printWarnings, runOf, wantsColor, writeOut, type CliContext } from "../context.js";
import type { DOCTOR_FORMATS } from "../options.js";

export interface DoctorFlags {
  root?: string;
  /** The same as --format json. */
  json?: boolean;
  format?: (typeof DOCTOR_FORMATS)[number];
  failOn?: Severity | "none";
}

/**
 * `ctxinject doctor`: what silently goes wrong in the repository's instruction files, and for which agent.
 * Findings on stdout (text, json, sarif for code scanning, github for workflow annotations); exit 1 when one is at
 * or above --fail-on (default error), for CI and hooks, whatever the format.
 */
export async function runDoctor(ctx: CliContext, flags: DoctorFlags, version = ""): Promise<number> {
  const tree = await readDoctorTree(runOf(ctx), flags.root);
  printWarnings(ctx, tree.warnings);
  // The hooks init installed are this machine's state, not the tree's: checked here, beside the tree's findings.
  const findings = diagnose({ ...tree, linear: linearEngine, machine: hookCommandFindings(tree.root, ctx.env, runOf(ctx).platform) });
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, findings.filter((f) => f.severity === s).length])) as Record<Severity, number>;
  const format = flags.format ?? (flags.json ? "json" : "text");
  if (format === "json") await writeOut(ctx, `${JSON.stringify({ root: tree.root, findings, counts }, null, 2)}\n`);
  else if (format === "sarif") await writeOut(ctx, renderSarif(findings, version));
  else if (format === "github") await writeOut(ctx, renderGithub(findings));
  else await writeOut(ctx, renderFindings(findings, counts, wantsColor(ctx)));
  const failOn = flags.failOn ?? "error";
  return failOn !== "none" && findings.some((f) => atLeast(f.severity, failOn)) ? 1 : 0;
}

function renderFindings(findings: Finding[], counts: Record<Severity, number>, color: boolean): string {
  const pc = color ? lazyRequire<typeof import("picocolors")>("picocolors").createColors(true) : null;
  const paint = { error: pc?.red ?? String, warning: pc?.yellow ?? String, info: pc?.cyan ?? String };
  const lines = findings.map(
    (f) => `${paint[f.severity](f.severity.padEnd(7))}  ${f.file}${f.line !== undefined ? `:${f.line}` : ""}  ${f.kind} [${f.agent}]: ${f.message}`,
  );
  const total = findings.length;
  lines.push(
    total === 0
      ? "no findings"
      : `${total} finding${total === 1 ? "" : "s"}: ${counts.error} error${counts.error === 1 ? "" : "s"}, ${counts.warning} warning${counts.warning === 1 ? "" : "s"}, ${counts.info} info`,
  );
  return `${lines.join("\n")}\n`;
}
