import { safeMessage } from "../core/redact.js";
import { gateName } from "../core/text-gate.js";
import type { Warning } from "../core/types.js";
import type { RunEnvironment } from "../io/pipeline.js";

/** The outside world, passed in so commands never read `process` themselves. */
export interface CliContext {
  cwd: string;
  env: Record<string, string | undefined>;
  /** The operating system (where the user's config and agents' settings live); default: this process's. */
  platform?: NodeJS.Platform;
  stdout: { write(chunk: string, callback?: (error?: Error | null) => void): unknown; isTTY?: boolean };
  /**
   * stdout and stderr are the terminal sink (cli/stdio.ts): stderr, and stdout on a terminal, pass the one escaper.
   * `control` writes ctxinject's own control sequences (the spinner's), unescaped.
   */
  stderr: { write(chunk: string): unknown; isTTY?: boolean; control?(chunk: string): unknown };
  /** The absolute path of the running executable (bin/ctxinject.js), for commands that install a hook. */
  self: string;
  /** When the process started (ms since the epoch), for a hook's deadline; unset in-process. */
  startedAt?: number;
  /** Standard input when it is piped; undefined for a terminal or /dev/null. */
  readStdin: () => Promise<string | undefined>;
}

/**
 * The outside world a pipeline run is given (io/pipeline.ts): below cli/ nothing reads `process`. Without
 * startedAt: only a hook's work has a deadline, and it adds ctx.startedAt itself.
 */
export function runOf(ctx: CliContext): RunEnvironment {
  return { cwd: ctx.cwd, env: ctx.env, platform: ctx.platform ?? process.platform };
}

/**
 * The warnings on stderr, each naming its file and line; they name files a repository controls and quote their text,
 * so each line leaves without secrets or hidden characters. The same message about one file is shown MAX_ALIKE times,
 * then counted once with the lines it was at: a file holding 20,000 credential-shaped strings gave 20,000 lines.
 */
export function printWarnings(ctx: CliContext, warnings: Warning[]): void {
  const alike = new Map<string, { shown: number; more: number; first: number; last: number; sample: Warning }>();
  const line = (w: Warning) => {
    // A file's name on a line of its own: its line breaks escaped (safeMessage keeps a message's).
    const where = w.file ? `${gateName(w.file)}${w.line ? `:${w.line}` : ""}: ` : "";
    ctx.stderr.write(`ctxinject: warning: ${safeMessage(`${where}${w.message}`)}\n`);
  };
  for (const w of warnings) {
    const key = `${w.file ?? ""}\0${w.message}`;
    const seen = alike.get(key) ?? { shown: 0, more: 0, first: 0, last: 0, sample: w };
    alike.set(key, seen);
    if (seen.shown < MAX_ALIKE) {
      seen.shown++;
      line(w);
      continue;
    }
    if (seen.more === 0) seen.first = w.line ?? 0;
    seen.more++;
    seen.last = w.line ?? seen.last;
  }
  for (const { more, first, last, sample } of alike.values()) {
    if (more === 0) continue;
    const lines = first > 0 && last > first ? ` at lines ${first}–${last}` : first > 0 ? ` at line ${first}` : "";
    line({ ...(sample.file !== undefined && { file: sample.file }), message: `${more} more${lines}: ${sample.message}` });
  }
}

/** How many warnings with the same message about the same file are shown one by one. */
const MAX_ALIKE = 5;

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
