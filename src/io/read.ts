import { closeSync, constants, lstatSync, openSync, readSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { baseName, dirOf } from "../core/rel-path.js";
import type { SourceFile, Warning } from "../core/types.js";
import { realOrSelf, toRootRelative, under } from "./paths.js";

const decoder = new TextDecoder("utf-8", { fatal: false });

export interface ReadOptions {
  /** Real paths outside the root that symlinks may lead to (config `allowOutside`, resolved against the root). */
  allowOutside?: string[];
  /** Called before each file (a hook's deadline check, which may throw to stop the reading). */
  onFile?: () => void;
}

/**
 * Reads instruction files as text. A file that cannot be read, holds a NUL byte (binary), or leads out of the
 * project root through a symlink is left out with a warning naming it; invalid UTF-8 decodes to replacement
 * characters, with a warning. Reads are synchronous: thousands of small files read faster one after another
 * than through the thread pool's open/fstat/read/close round trips (measured on the large benchmark tree).
 */
export function readSourceFiles(root: string, paths: string[], options: ReadOptions = {}): { files: SourceFile[]; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const realRoot = realOrSelf(root);
  const allowed = (options.allowOutside ?? []).map((p) => realOrSelf(resolve(root, p)));
  const files: SourceFile[] = [];
  // A folder's real path is its parent's plus its name unless it is a symlink: one lstat per folder, where
  // realpath would look at every folder on the way down again. Null: the folder is where its path says (no symlink
  // from the root down), so its files' real paths are their own and need no working out.
  const realDirs = new Map<string, string | null>([["", realRoot === root ? null : realRoot]]);
  const realDir = (dir: string): string | null => {
    let real = realDirs.get(dir);
    if (real === undefined) {
      const abs = under(root, dir);
      if (isSymlink(abs)) real = realpathSync.native(abs);
      else {
        const parent = realDir(dirOf(dir));
        real = parent === null ? null : under(parent, baseName(dir));
      }
      realDirs.set(dir, real);
    }
    return real;
  };
  for (const path of paths) {
    options.onFile?.();
    const abs = under(root, path);
    let fd: number | undefined;
    try {
      // The real path without resolving every file: its folder's (known once per folder), unless the file itself
      // is a symlink, which O_NOFOLLOW refuses (ELOOP) and which is then resolved on its own.
      let real: string;
      let realRel: string | null;
      try {
        // O_NONBLOCK: a FIFO named like an instruction file must not hold the run up at open (for a regular file it
        // changes nothing).
        fd = openSync(abs, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
        const folder = NO_FOLLOW === 0 ? undefined : realDir(dirOf(path));
        real = folder === undefined ? realpathSync.native(abs) : folder === null ? abs : under(folder, baseName(path));
        realRel = folder === null ? path : toRootRelative(realRoot, real);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ELOOP") throw error;
        real = realpathSync.native(abs);
        realRel = toRootRelative(realRoot, real);
        fd = openSync(abs, constants.O_RDONLY | NON_BLOCK);
      }
      if (realRel === null && !allowed.some((folder) => toRootRelative(folder, real) !== null)) {
        warnings.push({ file: path, message: `leads to ${real}, outside the project root; not followed (config allowOutside can allow it)` });
        continue;
      }
      const bytes = readWhole(fd);
      if (bytes.includes(0)) {
        warnings.push({ file: path, message: "binary file (NUL byte); skipped" });
        continue;
      }
      const text = decoder.decode(bytes);
      if (text.includes("\uFFFD") && !bytes.includes(Buffer.from("\uFFFD"))) {
        warnings.push({ file: path, message: "not valid UTF-8; undecodable bytes became U+FFFD" });
      }
      files.push(realRel !== null && realRel !== path ? { path, text, realPath: realRel } : { path, text });
    } catch (error) {
      warnings.push({ file: path, message: `${unreadable((error as NodeJS.ErrnoException).code ?? String(error))}; skipped` });
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
  return { files, warnings };
}

// One buffer for every file, grown when a file does not fit: readFileSync would fstat each file for its size and
// allocate a buffer per file, one more syscall and more garbage for each of --all's thousands of files. A read that
// leaves room in the buffer has reached the end: short reads of a regular file happen only there (discovery skips
// FIFOs, sockets and devices).
let scratch = Buffer.allocUnsafe(64 * 1024);

/** The whole file, as a view of the shared buffer: valid until the next call. */
function readWhole(fd: number): Buffer {
  let length = 0;
  for (;;) {
    if (length === scratch.length) {
      const bigger = Buffer.allocUnsafe(scratch.length * 2);
      scratch.copy(bigger, 0, 0, length);
      scratch = bigger;
    }
    const room = scratch.length - length;
    const n = readSync(fd, scratch, length, room, null);
    length += n;
    if (n < room) return scratch.subarray(0, length);
  }
}

/**
 * Whether a folder is a symlink: opening it as a folder without following links answers without the Stats object
 * (and its four Dates) lstat makes for each of --all's thousands of folders; anything that open refuses (a symlink's
 * ELOOP, a folder this user may not list) is asked of lstat.
 */
function isSymlink(abs: string): boolean {
  if (AS_FOLDER !== undefined) {
    try {
      closeSync(openSync(abs, AS_FOLDER));
      return false;
    } catch {
      // lstat below says what it is
    }
  }
  return lstatSync(abs).isSymbolicLink();
}

/** Windows has no O_NOFOLLOW: there every file's path is resolved. */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCK = constants.O_NONBLOCK ?? 0;
const AS_FOLDER = constants.O_DIRECTORY === undefined || NO_FOLLOW === 0 ? undefined : constants.O_RDONLY | constants.O_DIRECTORY | NO_FOLLOW;

function unreadable(code: string): string {
  if (code === "EISDIR") return "is a directory";
  if (code === "ENOENT") return "vanished before it could be read, or is a dangling symlink";
  if (code === "ELOOP") return "is a symlink loop";
  if (code === "EACCES" || code === "EPERM") return "cannot be read (permission denied)";
  return `cannot be read (${code})`;
}
