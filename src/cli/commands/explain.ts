import { resolve } from "node:path";
import { AGENT_PROFILES } from "../../core/agents/index.js";
import { agentView } from "../../core/agents/view.js";
import { renderExplainJson, renderExplainText } from "../../core/render/explain.js";
import { toRootRelative } from "../../io/paths.js";
import { lazyRequire } from "../../io/lazy-node.js";
import { wantsColor, type CliContext } from "../context.js";
import type { SelectionFlags } from "../options.js";
import { selectFromFlags } from "./select.js";

export interface ExplainFlags extends SelectionFlags {
  json?: boolean;
}

/** The trace of the same run `build` would make (budget included, measured in --format), not a recomputation. */
export async function runExplain(ctx: CliContext, flags: ExplainFlags): Promise<number> {
  const { candidates, doc } = await selectFromFlags(ctx, flags, false);
  const profile = flags.as === undefined ? undefined : AGENT_PROFILES[flags.as];
  const views = profile ? agentView(profile, candidates, doc.targets, toRootRelative(doc.root, resolve(ctx.cwd)) ?? "") : undefined;
  if (flags.json) {
    ctx.stdout.write(renderExplainJson(candidates, views));
    return 0;
  }
  // picocolors reads process.stdout when it loads, which creates the stream (~3.5 ms): only when colors are wanted.
  const paint = wantsColor(ctx) ? lazyRequire<typeof import("picocolors")>("picocolors").createColors(true) : undefined;
  ctx.stdout.write(renderExplainText(candidates, paint, views));
  return 0;
}
