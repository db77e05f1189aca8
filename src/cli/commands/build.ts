import { SEPARATOR } from "../../core/collector.js";
import type { CliContext } from "../context.js";
import type { SelectionFlags } from "../options.js";
import { selectAndCompose } from "./select.js";

export interface BuildFlags extends SelectionFlags {
  provenance?: boolean;
  passthrough?: boolean;
}

/**
 * Prints the context block. Given a prompt (filter mode) it prints the block, the separator, then the prompt
 * byte for byte, so `… | ctxinject build | agent-cli` hands the agent both; json output never carries the prompt.
 */
export async function runBuild(ctx: CliContext, flags: BuildFlags): Promise<number> {
  const { output, prompt, format } = await selectAndCompose(ctx, flags);
  if (prompt === undefined || flags.passthrough === false || format === "json") {
    ctx.stdout.write(output);
    return 0;
  }
  const block = output.replace(/\n+$/, "");
  ctx.stdout.write(block === "" ? prompt : `${block}${SEPARATOR}${prompt}`);
  return 0;
}
