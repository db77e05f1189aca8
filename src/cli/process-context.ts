import { readStdinIfPiped } from "./stdin.js";
import type { CliContext } from "./context.js";
import { fdWriter, type FdWriter } from "./stdio.js";

export interface ProcessContext extends CliContext {
  stdout: FdWriter;
  stderr: FdWriter;
}

/** The running process as a CliContext: the one place that hands `process` to the commands. */
export function processContext(): ProcessContext {
  return {
    cwd: process.cwd(),
    env: process.env,
    platform: process.platform,
    stdout: fdWriter(1, () => process.stdout),
    stderr: fdWriter(2, () => process.stderr),
    // Node makes argv[1] absolute; a symlink in a bin folder stays one, so an upgrade keeps working.
    self: process.argv[1] ?? "ctxinject",
    // A hook's deadline counts from here, when ctxinject's code runs, not from the process's start: Node's own
    // start-up is spent before any check can cut it short, and where many hooks start at once (an agent's parallel
    // tool calls: 32 on two cores) it alone took longer than the whole deadline, so every call threw its finished
    // work away and none answered. Counted from here, each call's own work is what the deadline bounds.
    startedAt: Date.now(),
    readStdin: () => readStdinIfPiped(),
  };
}

/**
 * Ends the process with the command's code. Once everything was written with plain write calls nothing is left to
 * flush, and `process.exit` skips tearing down the heap (~2 ms of every run); output still in one of Node's streams
 * (a non-blocking descriptor) is left to drain by the ordinary exit.
 */
export function exitWith(ctx: ProcessContext, code: number): void {
  process.exitCode = code;
  if (!ctx.stdout.streamed && !ctx.stderr.streamed) process.exit(code);
}
