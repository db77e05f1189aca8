import { fstatSync } from "node:fs";

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
  const chunks: Buffer[] = [];
  // process.stdin only now: creating it loads the stream modules, a cost a run from a terminal never needs.
  for await (const chunk of stdin ?? process.stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}
