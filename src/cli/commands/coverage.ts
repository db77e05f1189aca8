import { agentName, AGENT_NAMES_ACCEPTED } from "../../hosts/index.js";
import { coverageDiff, type CoverageDiff } from "../../core/coverage/diff.js";
import { renderCoverageHtml } from "../../core/coverage/html.js";
import { renderCoverageJson } from "../../core/coverage/json.js";
import { renderCoverageMarkdown } from "../../core/coverage/markdown.js";
import { coverageModel } from "../../core/coverage/model.js";
import { usageError } from "../../core/errors.js";
import { readCoverageAt, readCoverageTree } from "../../io/trees/coverage-tree.js";
import { writeIfChanged } from "../../io/fs/out-file.js";
import { outFile } from "../../io/fs/confine.js";
import { printWarnings, runOf, writeOut, type CliContext } from "../context.js";
import type { COVERAGE_FORMATS } from "../options.js";

export interface CoverageFlags {
  root?: string;
  /** Comma-separated agent names (short names too); every agent without it. */
  as?: string;
  format?: (typeof COVERAGE_FORMATS)[number];
  out?: string;
  base?: string;
}

/**
 * `ctxinject coverage`: for every folder and agent, what the agent loads itself, what ctxinject adds, the tokens and
 * the findings there; with --base, what a change does to that. Markdown (a PR comment), JSON (the model), HTML
 * (one self-contained file).
 */
export async function runCoverage(ctx: CliContext, flags: CoverageFlags): Promise<number> {
  const agents =
    flags.as === undefined
      ? undefined
      : flags.as
          .split(",")
          .map((name) => name.trim())
          .filter((name) => name !== "")
          .map((name) => {
            const known = agentName(name);
            if (known === undefined) throw usageError(`--as ${name}: not an agent ctxinject knows (one of ${AGENT_NAMES_ACCEPTED.join(", ")})`);
            return known;
          });
  const head = await readCoverageTree(runOf(ctx), flags.root, agents);
  printWarnings(ctx, head.warnings);
  const coverage = coverageModel(head.input);
  let diff: CoverageDiff | undefined;
  if (flags.base !== undefined) {
    const base = readCoverageAt(head.root, flags.base, head, ctx.env);
    printWarnings(ctx, base.warnings);
    diff = coverageDiff(flags.base, coverageModel(base.input), coverage);
  }
  const format = flags.format ?? "markdown";
  const text =
    format === "json"
      ? renderCoverageJson(head.root, coverage.model, diff)
      : format === "html"
        ? renderCoverageHtml(coverage.model, diff)
        : renderCoverageMarkdown(coverage.model, diff);
  if (flags.out !== undefined) writeIfChanged(outFile(head.root, ctx.cwd, flags.out), text);
  else await writeOut(ctx, text);
  return 0;
}
