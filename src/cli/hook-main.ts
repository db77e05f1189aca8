import { runHook } from "./commands/hook.js";
import { exitWith, processContext } from "./process-context.js";

/**
 * The entry of the hook bundle (dist/bundle/hook.cjs), which bin/ctxinject.js runs for `ctxinject hook <agent>`:
 * hosts run it on every prompt and tool call, and it holds only what a hook needs — no command tree, no commander.
 */
export async function run(): Promise<void> {
  const ctx = processContext();
  exitWith(ctx, await runHook(ctx, process.argv[3] ?? ""));
}
