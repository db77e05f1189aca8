import pc from "picocolors";
import { renderExplainJson, renderExplainText } from "../../core/render/explain.js";
import { wantsColor, type CliContext } from "../context.js";
import type { SelectionFlags } from "../options.js";
import { selectFromFlags } from "./select.js";

export interface ExplainFlags extends SelectionFlags {
  json?: boolean;
}

/** The trace of the same run `build` would make (budget included, measured in --format), not a recomputation. */
export async function runExplain(ctx: CliContext, flags: ExplainFlags): Promise<number> {
  const { candidates } = await selectFromFlags(ctx, flags, false);
  if (flags.json) {
    ctx.stdout.write(renderExplainJson(candidates));
    return 0;
  }
  const paint = wantsColor(ctx) ? pc.createColors(true) : undefined;
  ctx.stdout.write(renderExplainText(candidates, paint));
  return 0;
}
