import { closeSync, constants, lstatSync, openSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { readBoundedBytes, readInTree, unreadableReason } from "./bounded-read.js";
import { baseName, dirOf } from "../core/rel-path.js";
import type { SourceFile, Warning } from "../core/types.js";
import { mayStopAfter } from "../core/work-budget.js";
import { realOrSelf, toRootRelative, under } from "./paths.js";

export interface ReadOptions {
  /** Real paths outside the root that symlinks may lead to (config `allowOutside`, resolved against the root). */
  allowOutside?: string[];
  /** Asked before each file once the least is read (core/work-budget.ts mayStopAfter; a hook's deadline): true stops the reading, the files read so far kept. */
  shouldStop?: () => boolean;
  /** What the warning says stopped the reading (io/deadline.ts's note). */
  stopNote?: string;
}

/**
 * Reads instruction files as text. A file that cannot be read, holds a NUL byte (binary), or leads out of the
 * project root through a symlink is left out with a warning naming it; so is anything that is not a regular file
 * (a device, a FIFO: `/dev/zero` behind a symlink) or is larger than MAX_FILE_BYTES, before a byte of it is read.
 * Invalid UTF-8 decodes to replacement characters, with a warning. Reads are synchronous: thousands of small files read faster one after another
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
  const outside = (path: string, realRel: string | null, real: string): boolean => {
    if (realRel !== null || allowed.some((folder) => toRootRelative(folder, real) !== null)) return false;
    warnings.push({ file: path, message: `leads to ${real}, outside the project root; not followed (config allowOutside can allow it)` });
    return true;
  };
  let chars = 0;
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i]!;
    if (options.shouldStop !== undefined && mayStopAfter(files.length, chars) && options.shouldStop()) {
      warnings.push({ message: `${options.stopNote ?? "stopped"}: ${paths.length - i} of ${paths.length} files not read (${path} the first)` });
      break;
    }
    const abs = under(root, path);
    try {
      // The real path without resolving every file: its folder's (known once per folder), unless the file itself
      // is a symlink, which O_NOFOLLOW refuses (ELOOP) and which is then resolved on its own.
      const folder = NO_FOLLOW === 0 ? undefined : realDir(dirOf(path));
      let real = folder === undefined ? realpathSync.native(abs) : folder === null ? abs : under(folder, baseName(path));
      let realRel = folder === null ? path : toRootRelative(realRoot, real);
      if (outside(path, realRel, real)) continue;
      let decoded: Decoded | null;
      try {
        // Inside the tree (the usual case) through the shared buffer; what is reached outside it, checked every time.
        decoded = realRel !== null && NO_FOLLOW !== 0 ? readInTree(abs, decode, { noFollow: true }) : decode(readBoundedBytes(abs, { noFollow: NO_FOLLOW !== 0 }));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ELOOP") throw error;
        real = realpathSync.native(abs);
        realRel = toRootRelative(realRoot, real);
        if (outside(path, realRel, real)) continue;
        decoded = decode(readBoundedBytes(abs));
      }
      if (decoded === null) {
        warnings.push({ file: path, message: "binary file (NUL byte); skipped" });
        continue;
      }
      const { text, invalid } = decoded;
      if (invalid) warnings.push({ file: path, message: "not valid UTF-8; undecodable bytes became U+FFFD" });
      chars += text.length;
      files.push(realRel !== null && realRel !== path ? { path, text, realPath: realRel } : { path, text });
    } catch (error) {
      warnings.push({ file: path, message: `${unreadableReason(error)}; skipped` });
    }
  }
  return { files, warnings };
}

const REPLACEMENT = Buffer.from("\uFFFD");

interface Decoded {
  text: string;
  /** Undecodable bytes became U+FFFD (a file that holds the character itself says so in its bytes: rare). */
  invalid: boolean;
}

/**
 * A file's bytes (the first `length` of `bytes`) as text, or null when they hold a NUL byte (a binary file). A byte
 * order mark is dropped, as TextDecoder drops it. The NUL is looked for in the text: in UTF-8 a 0 byte is U+0000
 * and nothing else decodes to it.
 */
function decode(bytes: Buffer, length: number = bytes.length): Decoded | null {
  const bom = length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const text = bytes.toString("utf8", bom ? 3 : 0, length);
  if (text.includes("\0")) return null;
  return { text, invalid: text.includes("\uFFFD") && !bytes.subarray(0, length).includes(REPLACEMENT) };
}

/**
 * Whether a folder is a symlink: opening it as a folder without following links answers without the Stats object
 * (and its four Dates) lstat makes for each of --all's thousands of folders; anything that open refuses (a symlink's
 * ELOOP, a folder this user may not list) is asked of lstat. Measured slower in fresh processes on the large tree's
 * 3,380 folders (medians of 15): lstat for every folder (its Stats, Dates made eagerly on Node 20), one readdir per
 * parent folder shared by its children (58 against 28 ms), realpath of the deepest folders only (each walks its path).
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
const AS_FOLDER = constants.O_DIRECTORY === undefined || NO_FOLLOW === 0 ? undefined : constants.O_RDONLY | constants.O_DIRECTORY | NO_FOLLOW;
