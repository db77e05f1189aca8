import { fstatSync, readFileSync } from "node:fs";

/** What `readPipedSync` answers when only Node's stream can read standard input (a non-blocking pipe). */
export const NEEDS_STREAM = Symbol("stdin needs the stream");

/**
 * Standard input when it is a pipe, a socket or a regular file, read in one blocking call (~0.3 ms, where creating
 * process.stdin loads the stream and net modules, ~5 ms on every hook call); undefined for a terminal or a
 * character device such as /dev/null: an interactive `ctxinject build` must not sit waiting for input. Node hosts
 * (Claude Code, Gemini CLI) give a hook a socket pair and libuv makes the child's end blocking; one its writer made
 * non-blocking answers EAGAIN before anything is read: NEEDS_STREAM.
 */
export function readPipedSync(): string | undefined | typeof NEEDS_STREAM {
  let stat;
  try {
    stat = fstatSync(0);
  } catch {
    return undefined;
  }
  if (!(stat.isFIFO() || stat.isFile() || stat.isSocket())) return undefined;
  try {
    return readFileSync(0, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
    return NEEDS_STREAM;
  }
}

/** Standard input when it is piped (see readPipedSync), through Node's stream where a blocking read cannot. */
export async function readStdinIfPiped(): Promise<string | undefined> {
  const quick = readPipedSync();
  if (quick !== NEEDS_STREAM) return quick;
  const chunks: Buffer[] = [];
  // process.stdin only now: creating it loads the stream modules, a cost a run from a terminal never needs.
  for await (const chunk of process.stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}
