import { runSelection, type Selected } from "../../io/run-selection.js";
import { printWarnings, type CliContext } from "../context.js";
import { selectionOptions, type SelectionFlags } from "../options.js";
import { startProgress } from "../progress.js";

/** build and explain: the prompt from the flag or a piped stdin, then the shared selection; warnings to stderr. */
export async function selectFromFlags(ctx: CliContext, flags: SelectionFlags, take: boolean): Promise<Selected> {
  // An empty pipe (a CI step with nothing piped in) is no prompt at all.
  const prompt = flags.prompt ?? ((await ctx.readStdin()) || undefined);
  const stop = startProgress(ctx, "ctxinject: reading instruction files…");
  const request = { ...selectionOptions(flags), ...(prompt !== undefined && { prompt }) };
  const selected = await runSelection({ cwd: ctx.cwd, env: ctx.env }, request, take).finally(stop);
  printWarnings(ctx, selected.warnings);
  return selected;
}
