import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";

/**
 * The most a text file may hold for ctxinject to read it. Instruction files, configs and agent settings are a few
 * kilobytes; a repository can point a name at a device, a FIFO or a file that never stops growing, so every read of
 * a file a repository controls is bounded by bytes before any decoding.
 */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;

export interface BoundedReadOptions {
  /** Defaults to MAX_FILE_BYTES. */
  maxBytes?: number;
  /** Refuse a symlink as the last part of the path (ELOOP), where the platform can. */
  noFollow?: boolean;
  /** A further check of the opened file (its owner, its links): false refuses it (EREFUSED) with nothing read. */
  accept?: (stat: Stats) => boolean;
}

/** The error a refused read throws; `code` is read like an errno code (ENOTREG, EFBIG) by the callers' messages. */
export class BoundedReadError extends Error {
  constructor(
    readonly code: "ENOTREG" | "EFBIG" | "EREFUSED",
    readonly path: string,
    readonly limit = 0,
  ) {
    super(code === "ENOTREG" ? `${path} is not a regular file` : code === "EREFUSED" ? `${path} is not accepted` : `${path} is larger than the limit`);
  }
}

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCK = constants.O_NONBLOCK ?? 0;

/**
 * A regular file's bytes, at most `maxBytes`. Not a regular file (a device, a FIFO, a socket, a folder): ENOTREG,
 * with nothing read. Larger than the limit when opened: EFBIG. A file that grows while it is read is read up to
 * the size it had when opened. O_NONBLOCK so that opening a FIFO never waits for a writer.
 */
export function readBoundedBytes(path: string, options: BoundedReadOptions = {}): Buffer {
  const maxBytes = options.maxBytes ?? MAX_FILE_BYTES;
  // Node takes open(2)'s flags as a number too (its types know only strings).
  const flags = (constants.O_RDONLY | NON_BLOCK | (options.noFollow ? NO_FOLLOW : 0)) as unknown as string;
  const fd = openSync(path, flags);
  try {
    return readOpened(fd, path, maxBytes, options.accept);
  } finally {
    closeSync(fd);
  }
}

/** An open file's bytes from its start, when it is a regular file within the limit (and accepted). */
function readOpened(fd: number, path: string, maxBytes: number, accept?: (stat: Stats) => boolean): Buffer {
  const stat = fstatSync(fd);
  if (!stat.isFile()) throw new BoundedReadError("ENOTREG", path);
  if (stat.size > maxBytes) throw new BoundedReadError("EFBIG", path, maxBytes);
  if (accept && !accept(stat)) throw new BoundedReadError("EREFUSED", path);
  const buffer = Buffer.allocUnsafe(stat.size);
  let filled = 0;
  while (filled < stat.size) {
    const n = readSync(fd, buffer, filled, stat.size - filled, filled);
    if (n === 0) break;
    filled += n;
  }
  return filled === stat.size ? buffer : buffer.subarray(0, filled);
}

/**
 * What most reads are: a file a few kilobytes long. One buffer serves them all, so a file costs an open, a read and a
 * close, with no Buffer of its own and no Stats object (with its four Dates): --all reads thousands.
 */
const SCRATCH_BYTES = 64 * 1024;
let scratch: Buffer | undefined;

/**
 * The bytes of a file found inside the project tree, handed to `use` while they are valid (they live in a buffer the
 * next read reuses): what `use` keeps must be a copy, as a decoded string is. The file is the first `length` bytes of
 * `bytes` (no Buffer view made per file: Buffer's subarray cost --all ~5 ms over its thousands). The open file's type
 * and size are asked only where the first read cannot tell: nothing read (an empty file, or a FIFO with no writer), the
 * buffer filled (a large file, a device that never ends) or an error (a folder, a terminal with nothing to read). A
 * read that ends short of the buffer is a whole regular file: a device or FIFO that answers so can be in the tree only
 * by `mknod`/`mkfifo` in the checkout itself (git cannot make one), and what it could give is bounded by the buffer.
 * Anything reached outside the tree goes through readBoundedBytes, which asks every time.
 */
export function readInTree<T>(path: string, use: (bytes: Buffer, length: number) => T, options: { noFollow?: boolean; maxBytes?: number } = {}): T {
  const flags = (constants.O_RDONLY | NON_BLOCK | (options.noFollow ? NO_FOLLOW : 0)) as unknown as string;
  const fd = openSync(path, flags);
  try {
    const buffer = (scratch ??= Buffer.allocUnsafe(SCRATCH_BYTES));
    let n = -1;
    try {
      n = readSync(fd, buffer, 0, SCRATCH_BYTES, 0);
    } catch {
      // the file's type says why, below
    }
    const maxBytes = options.maxBytes ?? MAX_FILE_BYTES;
    if (n > 0 && n < SCRATCH_BYTES && n <= maxBytes) return use(buffer, n);
    const whole = readOpened(fd, path, maxBytes);
    return use(whole, whole.length);
  } finally {
    closeSync(fd);
  }
}

/** A bounded read decoded as UTF-8 (undecodable bytes become U+FFFD), without a leading byte order mark. */
export function readBoundedText(path: string, options: BoundedReadOptions = {}): string {
  const text = readBoundedBytes(path, options).toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** "permission denied" or "read-only file system" for a system call the user's rights refused; null for any other error. */
export function deniedReason(error: unknown): string | null {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  return code === "EROFS" ? "read-only file system" : null;
}

/** What a refused or failed read says in a warning, after the file's name. */
export function unreadableReason(error: unknown): string {
  if (error instanceof BoundedReadError) {
    if (error.code === "EREFUSED") return "is not accepted (owner or links)";
    return error.code === "ENOTREG" ? "is not a regular file (a folder, device, FIFO or socket)" : `is larger than ${error.limit} bytes`;
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? String(error);
  if (code === "EISDIR") return "is a directory";
  if (code === "ENOENT") return "vanished before it could be read, or is a dangling symlink";
  if (code === "ELOOP") return "is a symlink loop";
  return `cannot be read (${deniedReason(error) ?? code})`;
}
