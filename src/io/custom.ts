import { resolve } from "node:path";
import type { Config } from "../core/config.js";
import type { CustomInput } from "../core/select.js";
import type { Warning } from "../core/types.js";
import { toRootRelative } from "./fs/paths.js";
import { readSourceFiles } from "./fs/read.js";

/**
 * Config `custom` entries. A `file` is read like any instruction file (never above the root, not through a
 * symlink that leaves it, not binary), so its warnings are the same.
 */
export function readCustomEntries(root: string, config: Config): { entries: CustomInput[]; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const entries: CustomInput[] = [];
  for (const item of config.custom) {
    const base = { id: item.id, ...(item.priority && { priority: item.priority }) };
    if (item.content !== undefined) {
      entries.push({ ...base, content: item.content });
      continue;
    }
    const rel = toRootRelative(root, resolve(root, item.file!));
    if (rel === null || rel === "") {
      warnings.push({ message: `custom entry "${item.id}": file ${item.file} is outside the project root; skipped` });
      continue;
    }
    const read = readSourceFiles(root, [rel], { allowOutside: config.allowOutside });
    warnings.push(...read.warnings.map((w) => ({ ...w, message: `custom entry "${item.id}": ${w.message}` })));
    for (const file of read.files) entries.push({ ...base, content: file.text, path: rel });
  }
  return { entries, warnings };
}
