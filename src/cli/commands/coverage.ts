import { agentName, AGENT_NAMES_ACCEPTED } from "../../hosts/index.js";
import { coverageDiff, type CoverageDiff } from "../../core/coverage/diff.js";
import { renderCoverageHtml } from "../../core/coverage/html.js";
import { renderCoverageMarkdown } from "../../core/coverage/markdown.js";
import { coverageModel } from "../../core/coverage/model.js";
import { usageError } from "../../core/errors.js";
import { readCoverageAt, readCoverageTree } from "../../io/trees/coverage-tree.js";
import { writeIfChanged } from "../../io/fs/out-file.js";
import { outFile } from "../../io/fs/confine.js";
import { gateName, gateText, namesNeedGate } from "../../core/text-gate.js";
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
  // Folders', files' and rules' names pass the gate (core/text-gate.ts) on their way out: the report as a whole for
  // markdown and html (it holds nothing else a repository wrote), each string for json, where an escape would
  // hide a control from a test of the text.
  const value = () => ({ root: head.root, ...coverage.model, ...(diff !== undefined && { base: diff }) });
  const text =
    format === "json"
      ? // Compact: a format for tools (`jq .` indents it); indented, 100k folders' cells were half its bytes and time.
        `${gatedJson(value)}\n`
      : gateText(format === "html" ? renderCoverageHtml(coverage.model, diff) : renderCoverageMarkdown(coverage.model, diff)).text;
  if (flags.out !== undefined) writeIfChanged(outFile(head.root, ctx.cwd, flags.out), text);
  else await writeOut(ctx, text);
  return 0;
}

/** JSON with every string gated: stringified as it is first, again string by string only when that needs it. */
function gatedJson(value: () => unknown): string {
  const plain = JSON.stringify(value());
  if (!namesNeedGate([plain]) && !/\\u00[0-9a-f]{2}/.test(plain)) return plain;
  // A large tree's model repeats its strings (reasons, folders, messages) thousands of times: each is gated once.
  const gated = new Map<string, string>();
  const gate = (v: string) => {
    let out = gated.get(v);
    if (out === undefined) gated.set(v, (out = gateName(v)));
    return out;
  };
  return JSON.stringify(value(), (_key, v: unknown) => (typeof v === "string" ? gate(v) : v));
}
