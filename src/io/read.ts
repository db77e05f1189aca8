import { readFileSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import type { SourceFile, Warning } from "../core/types.js";
import { toRootRelative } from "./paths.js";

const decoder = new TextDecoder("utf-8", { fatal: false });

export interface ReadOptions {
  /** Real paths outside the root that symlinks may lead to (config `allowOutside`, resolved against the root). */
  allowOutside?: string[];
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
  for (const path of paths) {
    const abs = join(root, path);
    try {
      const real = realpathSync.native(abs);
      const realRel = toRootRelative(realRoot, real);
      if (realRel === null && !allowed.some((folder) => toRootRelative(folder, real) !== null)) {
        warnings.push({ file: path, message: `leads to ${real}, outside the project root; not followed (config allowOutside can allow it)` });
        continue;
      }
      const bytes = readFileSync(abs);
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
    }
  }
  return { files, warnings };
}

function realOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

function unreadable(code: string): string {
  if (code === "EISDIR") return "is a directory";
  if (code === "ENOENT") return "vanished before it could be read, or is a dangling symlink";
  if (code === "ELOOP") return "is a symlink loop";
  if (code === "EACCES" || code === "EPERM") return "cannot be read (permission denied)";
  return `cannot be read (${code})`;
}
