import { runSelection, type Selected } from "../../io/run-selection.js";
import type { Format } from "../../core/types.js";
import { printWarnings, type CliContext } from "../context.js";
import { startProgress } from "../progress.js";
import { selectionOptions, type SelectionFlags } from "../options.js";

export interface SessionFlags {
  session?: string;
  fresh?: boolean;
}

/** build and explain: the prompt from the flag or a piped stdin, then the shared selection; warnings to stderr. */
export async function selectFromFlags(
  ctx: CliContext,
  flags: SelectionFlags & SessionFlags & { format?: Format; provenance?: boolean },
  take: boolean,
): Promise<Selected> {
  // An empty pipe (a CI step with nothing piped in) is no prompt at all.
  const prompt = flags.prompt ?? ((await ctx.readStdin()) || undefined);
  const stop = startProgress(ctx, "ctxinject: reading instruction files…");
  const selected = await runSelection(
    { cwd: ctx.cwd, env: ctx.env },
    {
      ...selectionOptions(flags),
      ...(prompt !== undefined && { prompt }),
      ...(flags.session !== undefined && { session: flags.session }),
      ...(flags.fresh === true && { fresh: true }),
      ...(flags.format !== undefined && { format: flags.format }),
      ...(flags.provenance === false && { provenance: false }),
      ...(flags.maxTokens !== undefined && { maxTokens: flags.maxTokens }),
    },
    take,
  ).finally(stop);
  printWarnings(ctx, selected.warnings);
  return selected;
}
