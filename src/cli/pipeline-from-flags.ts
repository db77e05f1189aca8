import { runPipeline, type Selected } from "../io/pipeline.js";
import { printWarnings, runOf, type CliContext } from "./context.js";
import { selectionOptions, type SelectionFlags } from "./options.js";
import { startProgress } from "./progress.js";

/** build and explain: the prompt from the flag or a piped stdin, then the pipeline; warnings to stderr. */
export async function pipelineFromFlags(ctx: CliContext, flags: SelectionFlags, purpose: "build" | "explain"): Promise<Selected> {
  // An empty pipe (a CI step with nothing piped in) is no prompt at all.
  const prompt = flags.prompt ?? ((await ctx.readStdin()) || undefined);
  const stop = startProgress(ctx, "ctxinject: reading instruction files…");
  const request = { ...selectionOptions(flags), ...(prompt !== undefined && { prompt }), purpose };
  const selected = await runPipeline(runOf(ctx), request).finally(stop);
  printWarnings(ctx, selected.warnings);
  return selected;
}
