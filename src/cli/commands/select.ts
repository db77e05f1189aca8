import { compose, type Composed } from "../../core/compose.js";
import type { Format } from "../../core/types.js";
import { gather } from "../../io/gather.js";
import { printWarnings, type CliContext } from "../context.js";
import { selectionOptions, type SelectionFlags } from "../options.js";

export interface Selected extends Composed {
  prompt: string | undefined;
  format: Format;
}

/** What build and explain share: prompt, gather, budget. Warnings go to stderr here, once. */
export async function selectAndCompose(ctx: CliContext, flags: SelectionFlags & { format?: Format; provenance?: boolean }): Promise<Selected> {
  // An empty pipe (`< /dev/null` aside, e.g. a CI step with nothing piped in) is no prompt at all.
  const prompt = flags.prompt ?? ((await ctx.readStdin()) || undefined);
  const gathered = await gather({ cwd: ctx.cwd, ...selectionOptions(flags), ...(prompt !== undefined && { prompt }) });
  printWarnings(ctx, gathered.warnings);
  const format = flags.format ?? gathered.config.format ?? "markdown";
  const composed = compose(gathered.selection, {
    format,
    root: gathered.root,
    tokenizer: gathered.tokenizer,
    maxTokens: flags.maxTokens ?? gathered.config.maxTokens ?? null,
    countTokens: gathered.countTokens,
    provenance: flags.provenance !== false,
    all: flags.all === true,
  });
  return { ...composed, prompt, format };
}
