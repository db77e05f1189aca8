import { safeMessage } from "../core/redact.js";
import type { Warning } from "../core/types.js";

/** The outside world, passed in so commands never read `process` themselves. */
export interface CliContext {
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: { write(chunk: string, callback?: (error?: Error | null) => void): unknown; isTTY?: boolean };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  /** The absolute path of the running executable (bin/ctxinject.js), for commands that install a hook. */
  self: string;
  /** When the process started (ms since the epoch), for a hook's deadline; unset in-process. */
  startedAt?: number;
  /** Standard input when it is piped; undefined for a terminal or /dev/null. */
  readStdin: () => Promise<string | undefined>;
}

/** Warnings name files a repository controls and quote their text: each line leaves without secrets or hidden characters. */
export function printWarnings(ctx: CliContext, warnings: Warning[]): void {
  for (const w of warnings) {
    const where = w.file ? `${w.file}${w.line ? `:${w.line}` : ""}: ` : "";
    ctx.stderr.write(`ctxinject: warning: ${safeMessage(`${where}${w.message}`)}\n`);
  }
}

/** Color only for a terminal, never under NO_COLOR or TERM=dumb; FORCE_COLOR forces it. */
export function wantsColor(ctx: CliContext): boolean {
  if (ctx.env.NO_COLOR !== undefined && ctx.env.NO_COLOR !== "") return false;
  if (ctx.env.FORCE_COLOR !== undefined && ctx.env.FORCE_COLOR !== "0") return true;
  return ctx.stdout.isTTY === true && ctx.env.TERM !== "dumb";
}

/** Writes to stdout and resolves once the data is handed over: only then may a session forget what it printed. */
export function writeOut(ctx: CliContext, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (text === "") return resolve();
    ctx.stdout.write(text, (error) => (error ? reject(error) : resolve()));
  });
}
