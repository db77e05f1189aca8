import { forbiddenImport, importRefs, MAX_IMPORT_DEPTH, writtenImport, type ImportSyntax } from "../core/parse/imports.js";
import type { SourceFile, Warning } from "../core/types.js";
import { entryAt, under } from "./fs/paths.js";
import { readSourceFiles, type ReadOptions } from "./fs/read.js";

/**
 * The files that agent files `@import` (and Kiro's steering files reference as `#[[file:path]]`), read level by
 * level (at most MAX_IMPORT_DEPTH deep) with the same checks as any instruction file; an imported file's own
 * imports are read in its importer's syntax. A token that names no file is not an import: nothing is read or warned.
 * A file inside .git or node_modules, or one git ignores (`ignoredOf`: asked once a level, for the files there), is
 * never read through an import: a warning names the importing file and line.
 */
export function readImports(
  root: string,
  files: SourceFile[],
  syntaxOf: (path: string) => ImportSyntax | null,
  options: ReadOptions,
  ignoredOf: (paths: string[]) => (path: string) => boolean = () => () => false,
): { files: SourceFile[]; warnings: Warning[] } {
  const have = new Set(files.map((f) => f.path));
  const out: SourceFile[] = [];
  const warnings: Warning[] = [];
  // A loop, not flatMap: an array per file for --all's thousands.
  let level: Array<{ file: SourceFile; syntax: ImportSyntax }> = [];
  for (const file of files) {
    const syntax = syntaxOf(file.path);
    if (syntax !== null) level.push({ file, syntax });
  }
  const refused = new Set<string>();
  for (let depth = 0; depth < MAX_IMPORT_DEPTH && level.length > 0; depth++) {
    const syntaxOfWanted = new Map<string, ImportSyntax>();
    const askedBy = new Map<string, Warning>();
    for (const { file, syntax } of level) {
      for (const ref of importRefs(file, syntax)) {
        if (have.has(ref.path) || syntaxOfWanted.has(ref.path) || !isFile(under(root, ref.path))) continue;
        const where = { file: file.path, line: ref.line };
        const forbidden = forbiddenImport(ref.path);
        if (forbidden !== null) {
          if (!refused.has(ref.path)) warnings.push({ ...where, message: refusal(ref.token, syntax, forbidden) });
          refused.add(ref.path);
          continue;
        }
        syntaxOfWanted.set(ref.path, syntax);
        askedBy.set(ref.path, { ...where, message: refusal(ref.token, syntax, "git ignores it") });
      }
    }
    if (syntaxOfWanted.size === 0) break;
    const ignored = ignoredOf([...syntaxOfWanted.keys()]);
    for (const [path, warning] of askedBy) {
      if (!ignored(path)) continue;
      syntaxOfWanted.delete(path);
      if (!refused.has(path)) warnings.push(warning);
      refused.add(path);
    }
    const wanted = [...syntaxOfWanted.keys()];
    wanted.forEach((path) => have.add(path));
    const read = readSourceFiles(root, wanted, options);
    out.push(...read.files);
    warnings.push(...read.warnings);
    level = read.files.map((file) => ({ file, syntax: syntaxOfWanted.get(file.path)! }));
  }
  return { files: out, warnings };
}

const refusal = (token: string, syntax: ImportSyntax, why: string): string => `${writtenImport(token, syntax)} is not imported: ${why}; left as written`;

/** Through a file or a link loop is no file either (entryAt): an import of `README.md/x` is refused, not a crash. */
function isFile(path: string): boolean {
  return entryAt(path)?.isFile() === true;
}
