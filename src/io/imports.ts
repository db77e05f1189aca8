import { statSync } from "node:fs";
import { importedPaths, MAX_IMPORT_DEPTH } from "../core/parse/imports.js";
import type { SourceFile, Warning } from "../core/types.js";
import { under } from "./paths.js";
import { readSourceFiles, type ReadOptions } from "./read.js";

/**
 * The files that agent files `@import`, read level by level (at most MAX_IMPORT_DEPTH deep) with the same
 * checks as any instruction file. A token that names no file is not an import: nothing is read or warned.
 */
export function readImports(root: string, files: SourceFile[], expands: (path: string) => boolean, options: ReadOptions): { files: SourceFile[]; warnings: Warning[] } {
  const have = new Set(files.map((f) => f.path));
  const out: SourceFile[] = [];
  const warnings: Warning[] = [];
  let level = files.filter((f) => expands(f.path));
  for (let depth = 0; depth < MAX_IMPORT_DEPTH && level.length > 0; depth++) {
    const wanted = [...new Set(level.flatMap(importedPaths))].filter((path) => !have.has(path) && isFile(under(root, path)));
    if (wanted.length === 0) break;
    wanted.forEach((path) => have.add(path));
    const read = readSourceFiles(root, wanted, options);
    out.push(...read.files);
    warnings.push(...read.warnings);
    level = read.files;
  }
  return { files: out, warnings };
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}
