import { lstat, readFile, realpath } from "node:fs/promises";
import { join } from "node:path";
import type { SourceFile, Warning } from "../core/types.js";
import { toRootRelative } from "./paths.js";

const decoder = new TextDecoder("utf-8", { fatal: false });

/**
 * Reads instruction files as text. A file that cannot be read, or holds a NUL byte (binary), is left out with
 * a warning naming it; invalid UTF-8 decodes to replacement characters.
 */
export async function readSourceFiles(root: string, paths: string[]): Promise<{ files: SourceFile[]; warnings: Warning[] }> {
  const warnings: Warning[] = [];
  const results = await Promise.all(
    paths.map(async (path): Promise<SourceFile | null> => {
      const abs = join(root, path);
      try {
        const [bytes, stat] = await Promise.all([readFile(abs), lstat(abs)]);
        if (bytes.includes(0)) {
          warnings.push({ file: path, message: "binary file (NUL byte); skipped" });
          return null;
        }
        const file: SourceFile = { path, text: decoder.decode(bytes) };
        if (stat.isSymbolicLink()) {
          const real = toRootRelative(root, await realpath(abs));
          if (real !== null && real !== path) file.realPath = real;
        }
        return file;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? "";
        const why = code === "EISDIR" ? "is a directory" : code === "ENOENT" ? "vanished before it could be read" : `cannot be read (${code || String(error)})`;
        warnings.push({ file: path, message: `${why}; skipped` });
        return null;
      }
    }),
  );
  return { files: results.filter((f): f is SourceFile => f !== null), warnings };
}
