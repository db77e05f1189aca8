import { agentView } from "../../core/agents/view.js";
import { everySettingOrigin } from "../../core/config-layers.js";
import { HOST_CONFIG } from "../../hosts/index.js";
import { renderExplainJson, renderExplainText } from "../../core/render/explain.js";
import { profileForAs } from "../../io/agent-settings.js";
import { workingFolderOf } from "../../io/fs/paths.js";
import { lazyRequire } from "../../io/lazy-node.js";
import { printWarnings, runOf, wantsColor, type CliContext } from "../context.js";
import type { SelectionFlags } from "../options.js";
import { pipelineFromFlags } from "../pipeline-from-flags.js";

export interface ExplainFlags extends SelectionFlags {
  json?: boolean;
}

/** The trace of the same run `build` would make (budget included, measured in --format), not a recomputation. */
export async function runExplain(ctx: CliContext, flags: ExplainFlags): Promise<number> {
  // --as adds a column to the ordinary trace; the selection itself is build's, not the agent's view build --as prints.
  const { as: agent, ...selection } = flags;
  const run = await pipelineFromFlags(ctx, selection, "explain");
  const { candidates, doc } = run;
  // The hosts' groups (`<short>.includeNative`) are listed at their defaults too: core's list knows no host.
  const settings = everySettingOrigin(run.settings, HOST_CONFIG);
  const profile = profileForAs(agent, doc.root, runOf(ctx), (warnings) => printWarnings(ctx, warnings));
  const views = profile ? agentView(profile, candidates, doc.targets, workingFolderOf(doc.root, ctx.cwd)) : undefined;
  if (flags.json) {
    ctx.stdout.write(renderExplainJson(candidates, views, settings));
    return 0;
  }
  // picocolors reads process.stdout when it loads, which creates the stream (~3.5 ms): only when colors are wanted.
  const paint = wantsColor(ctx) ? lazyRequire<typeof import("picocolors")>("picocolors").createColors(true) : undefined;
  ctx.stdout.write(renderExplainText(candidates, paint, views, settings));
  return 0;
}
