import { readStdinIfPiped } from "../io/stdin.js";
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
    stdout: fdWriter(1, () => process.stdout),
    stderr: fdWriter(2, () => process.stderr),
    // Node makes argv[1] absolute; a symlink in a bin folder stays one, so an upgrade keeps working.
    self: process.argv[1] ?? "ctxinject",
    // Not performance.timeOrigin: the performance global loads perf_hooks (a dozen modules) on first use.
    startedAt: Date.now() - process.uptime() * 1000,
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
