import { fstatSync, statSync, writeSync } from "node:fs";
import { escapeTerminal } from "../core/terminal-escape.js";
import { lazyRequire } from "../io/lazy-node.js";

type Callback = (error?: Error | null) => void;

export interface FdWriter {
  /** Through the terminal escaper on stderr and on a terminal (see fdWriter). */
  write(chunk: string, callback?: Callback): boolean;
  /** ctxinject's own control sequences (the spinner's carriage return and line erase), never data: unescaped. */
  control(chunk: string): boolean;
  readonly isTTY: boolean;
  /** True once output went through Node's stream, which may still hold some of it. */
  readonly streamed: boolean;
}

/**
 * stdout or stderr written with plain `write(2)` calls. Creating `process.stdout` loads Node's stream modules
 * (~3.5 ms, on every prompt a hook answers); a blocking descriptor needs none of them. A descriptor its opener made
 * non-blocking answers EAGAIN: from then on the rest goes through Node's stream, in order. A reader that went away
 * (EPIPE) is told to the caller's callback; without one the output is dropped, as `head` expects.
 *
 * The terminal sink: everything written to stderr, and to stdout when it is a terminal, passes the one escaper
 * (core/terminal-escape.ts: a control is shown as `\x1b`, never obeyed). Data on a stdout that is no
 * terminal (a pipe, a file, a hook's answer) leaves byte for byte as the gate made it.
 */
export function fdWriter(fd: 1 | 2, stream: () => NodeJS.WriteStream): FdWriter {
  let fallback: NodeJS.WriteStream | undefined;
  let tty: boolean | undefined;
  const isTTY = () => (tty ??= isTerminal(fd));
  const send = (chunk: string, callback?: Callback): boolean => {
    if (fallback) return fallback.write(chunk, callback);
    let bytes: Buffer | undefined;
    try {
      // The text goes as it is (Node encodes it outside the JS heap: --all prints megabytes); only a short write
      // leaves the rest to be sent as bytes.
      const written = writeSync(fd, chunk);
      if (written < Buffer.byteLength(chunk)) {
        bytes = Buffer.from(chunk, "utf8").subarray(written);
        while (bytes.length > 0) bytes = bytes.subarray(writeSync(fd, bytes));
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EAGAIN") {
        fallback = stream();
        return fallback.write(bytes ?? chunk, callback);
      }
      if (callback) callback(error as Error);
      else if ((error as NodeJS.ErrnoException).code !== "EPIPE" && fd === 1) throw error;
      return false;
    }
    callback?.();
    return true;
  };
  return {
    get isTTY() {
      return isTTY();
    },
    get streamed() {
      return fallback !== undefined;
    },
    write: (chunk, callback) => send(fd === 2 || isTTY() ? escapeTerminal(chunk) : chunk, callback),
    control: (chunk) => send(chunk),
  };
}

/**
 * node:tty loads the net and stream modules (~2.5 ms): asked only for a character device that is not /dev/null
 * (scripts send stderr there; a terminal is the case that needs the answer).
 */
function isTerminal(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    if (!stat.isCharacterDevice() || stat.rdev === statSync("/dev/null", { throwIfNoEntry: false })?.rdev) return false;
  } catch {
    return false;
  }
  return lazyRequire<typeof import("node:tty")>("node:tty").isatty(fd);
}
