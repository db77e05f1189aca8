import { statSync } from "node:fs";
import { importedPaths, MAX_IMPORT_DEPTH, type ImportSyntax } from "../core/parse/imports.js";
import type { SourceFile, Warning } from "../core/types.js";
import { under } from "./paths.js";
import { readSourceFiles, type ReadOptions } from "./read.js";

/**
 * The files that agent files `@import` (and Kiro's steering files reference as `#[[file:path]]`), read level by
 * level (at most MAX_IMPORT_DEPTH deep) with the same checks as any instruction file; an imported file's own
 * imports are read in its importer's syntax. A token that names no file is not an import: nothing is read or warned.
 */
export function readImports(root: string, files: SourceFile[], syntaxOf: (path: string) => ImportSyntax | null, options: ReadOptions): { files: SourceFile[]; warnings: Warning[] } {
  const have = new Set(files.map((f) => f.path));
  const out: SourceFile[] = [];
  const warnings: Warning[] = [];
  // A loop, not flatMap: an array per file for --all's thousands.
  let level: Array<{ file: SourceFile; syntax: ImportSyntax }> = [];
  for (const file of files) {
    const syntax = syntaxOf(file.path);
    if (syntax !== null) level.push({ file, syntax });
  }
  for (let depth = 0; depth < MAX_IMPORT_DEPTH && level.length > 0; depth++) {
    const syntaxOfWanted = new Map<string, ImportSyntax>();
    for (const { file, syntax } of level) {
      for (const path of importedPaths(file, syntax)) if (!have.has(path) && !syntaxOfWanted.has(path) && isFile(under(root, path))) syntaxOfWanted.set(path, syntax);
    }
    if (syntaxOfWanted.size === 0) break;
    const wanted = [...syntaxOfWanted.keys()];
    wanted.forEach((path) => have.add(path));
    const read = readSourceFiles(root, wanted, options);
    out.push(...read.files);
    warnings.push(...read.warnings);
    level = read.files.map((file) => ({ file, syntax: syntaxOfWanted.get(file.path)! }));
  }
  return { files: out, warnings };
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}
