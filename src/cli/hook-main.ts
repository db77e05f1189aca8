import { runHook } from "./commands/hook.js";
import type { Handover } from "./hook-transport/client.js";
import { exitWith, processContext } from "./process-context.js";

/**
 * The entry of the hook bundle (dist/bundle/hook.cjs), which bin/ctxinject.js runs for `ctxinject hook <agent>` when
 * the hook server did not answer (src/cli/hook-transport/client.ts; `handover` holds standard input if the client read it):
 * hosts run it on every prompt and tool call, and it holds only what a hook needs — no command tree, no commander.
 */
export async function run(handover: Handover = {}): Promise<void> {
  const ctx = processContext();
  if ("stdin" in handover) ctx.readStdin = async () => handover.stdin;
  exitWith(ctx, await runHook(ctx, process.argv[3] ?? ""));
}
