import { renderExplainJson, renderExplainText } from "../../core/render/explain.js";
import { lazyRequire } from "../../io/lazy-node.js";
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
  // picocolors reads process.stdout when it loads, which creates the stream (~3.5 ms): only when colors are wanted.
  const paint = wantsColor(ctx) ? lazyRequire<typeof import("picocolors")>("picocolors").createColors(true) : undefined;
  ctx.stdout.write(renderExplainText(candidates, paint));
  return 0;
}
