import { SEPARATOR } from "../../core/collector.js";
import { writeOut, type CliContext } from "../context.js";
import type { SelectionFlags } from "../options.js";
import { selectFromFlags, type SessionFlags } from "./select.js";

export interface BuildFlags extends SelectionFlags, SessionFlags {
  provenance?: boolean;
  passthrough?: boolean;
}

/**
 * Prints the context block. Given a prompt (filter mode) it prints the block, the separator, then the prompt
 * byte for byte, so `… | ctxinject build | agent-cli` hands the agent both; json output never carries the prompt.
 * With --session, the session's pending entries are consumed only once the output is written.
 */
export async function runBuild(ctx: CliContext, flags: BuildFlags): Promise<number> {
  const selected = await selectFromFlags(ctx, flags, true);
  const { output, prompt, format } = selected;
  let text = output;
  if (prompt !== undefined && flags.passthrough !== false && format !== "json") {
    const block = output.replace(/\n+$/, "");
    text = block === "" ? prompt : `${block}${SEPARATOR}${prompt}`;
  }
  try {
    await writeOut(ctx, text);
  } catch (error) {
    await selected.abort();
    throw error;
  }
  await selected.finish();
  return 0;
}
