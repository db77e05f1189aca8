import { fstatSync, readFileSync } from "node:fs";

/**
 * Reads standard input when it is a pipe, a socket or a regular file, and never when it is a terminal or a
 * character device such as /dev/null: an interactive `ctxinject build` must not sit waiting for input.
 */
export async function readStdinIfPiped(stdin?: NodeJS.ReadableStream): Promise<string | undefined> {
  let stat;
  try {
    stat = fstatSync(0);
  } catch {
    return undefined;
  }
  if (!(stat.isFIFO() || stat.isFile() || stat.isSocket())) return undefined;
  if (stdin === undefined) {
    // A pipe, a socket or a file read in one blocking call: ~0.3 ms, where creating process.stdin loads the stream
    // and net modules (~5 ms, on every hook call). Node hosts (Claude Code, Gemini CLI) give a hook a socket pair;
    // libuv makes the child's end blocking. One its writer made non-blocking answers EAGAIN: the stream reads it.
    try {
      return readFileSync(0, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
    }
  }
  const chunks: Buffer[] = [];
  // process.stdin only now: creating it loads the stream modules, a cost a run from a terminal never needs.
  for await (const chunk of stdin ?? process.stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}
