import { renderExplainJson, renderExplainText } from "../../core/render/explain.js";
import { gather } from "../../io/gather.js";
import { printWarnings, wantsColor, type CliContext } from "../context.js";
import { selectionOptions, type SelectionFlags } from "../options.js";

export interface ExplainFlags extends SelectionFlags {
  json?: boolean;
}

export async function runExplain(ctx: CliContext, flags: ExplainFlags): Promise<number> {
  const gathered = await gather({ cwd: ctx.cwd, ...selectionOptions(flags) });
  printWarnings(ctx, gathered.warnings);
  const { candidates } = gathered.selection;
  if (flags.json) {
    ctx.stdout.write(renderExplainJson(candidates));
    return 0;
  }
  const paint = wantsColor(ctx) ? (await import("picocolors")).default.createColors(true) : undefined;
  ctx.stdout.write(renderExplainText(candidates, paint));
  return 0;
}
