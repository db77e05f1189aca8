import { render } from "../../core/render/index.js";
import { approxTokens } from "../../core/tokens.js";
import { gather } from "../../io/gather.js";
import { printWarnings, type CliContext } from "../context.js";
import { selectionOptions, type SelectionFlags } from "../options.js";
import type { Format } from "../../core/types.js";

export interface BuildFlags extends SelectionFlags {
  format?: Format;
  provenance?: boolean;
}

export async function runBuild(ctx: CliContext, flags: BuildFlags): Promise<number> {
  const countTokens = approxTokens;
  const gathered = await gather({ cwd: ctx.cwd, ...selectionOptions(flags), countTokens });
  printWarnings(ctx, gathered.warnings);
  const format = flags.format ?? gathered.config.format ?? "markdown";
  const { selection } = gathered;
  const output = render(
    format,
    {
      root: gathered.root,
      targets: selection.targets,
      tokenizer: "approx",
      maxTokens: null,
      entries: selection.entries,
      omitted: selection.omitted,
      provenance: flags.provenance !== false,
      all: flags.all === true,
    },
    countTokens,
  );
  ctx.stdout.write(output);
  return 0;
}
