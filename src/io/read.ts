import { closeSync, constants, lstatSync, openSync, readFileSync, realpathSync } from "node:fs";
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
  const realDirs = new Map<string, string>([["", realRoot]]);
  // A folder's real path is its parent's plus its name unless it is a symlink: one lstat per folder, where
  // realpath would look at every folder on the way down again.
  const realDir = (dir: string): string => {
    let real = realDirs.get(dir);
    if (real === undefined) {
      const abs = under(root, dir);
      real = lstatSync(abs).isSymbolicLink() ? realpathSync.native(abs) : under(realDir(dirOf(dir)), baseName(dir));
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
      try {
        // O_NONBLOCK: a FIFO named like an instruction file must not hold the run up at open (for a regular file it
        // changes nothing).
        fd = openSync(abs, constants.O_RDONLY | NO_FOLLOW | NON_BLOCK);
        real = NO_FOLLOW === 0 ? realpathSync.native(abs) : under(realDir(dirOf(path)), baseName(path));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ELOOP") throw error;
        real = realpathSync.native(abs);
        fd = openSync(abs, constants.O_RDONLY | NON_BLOCK);
      }
      const realRel = toRootRelative(realRoot, real);
      if (realRel === null && !allowed.some((folder) => toRootRelative(folder, real) !== null)) {
        warnings.push({ file: path, message: `leads to ${real}, outside the project root; not followed (config allowOutside can allow it)` });
        continue;
      }
      const bytes = readFileSync(fd);
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

/** Windows has no O_NOFOLLOW: there every file's path is resolved. */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCK = constants.O_NONBLOCK ?? 0;

function unreadable(code: string): string {
  if (code === "EISDIR") return "is a directory";
  if (code === "ENOENT") return "vanished before it could be read, or is a dangling symlink";
  if (code === "ELOOP") return "is a symlink loop";
  if (code === "EACCES" || code === "EPERM") return "cannot be read (permission denied)";
  return `cannot be read (${code})`;
}
