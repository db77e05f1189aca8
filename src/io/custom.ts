import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Config } from "../core/config.js";
import type { CustomInput } from "../core/select.js";
import type { Warning } from "../core/types.js";
import { toRootRelative } from "./paths.js";

/** Config `custom` entries, with `file` ones read from disk (relative to the root; never above it). */
export async function readCustomEntries(root: string, config: Config): Promise<{ entries: CustomInput[]; warnings: Warning[] }> {
  const warnings: Warning[] = [];
  const entries: CustomInput[] = [];
  for (const item of config.custom) {
    const base = { id: item.id, ...(item.priority && { priority: item.priority }) };
    if (item.content !== undefined) {
      entries.push({ ...base, content: item.content });
      continue;
    }
    const rel = toRootRelative(root, resolve(root, item.file!));
    if (rel === null) {
      warnings.push({ message: `custom entry "${item.id}": file ${item.file} is outside the project root; skipped` });
      continue;
    }
    try {
      entries.push({ ...base, content: await readFile(resolve(root, rel), "utf8"), path: rel });
    } catch (error) {
      warnings.push({ file: rel, message: `custom entry "${item.id}": cannot read the file (${(error as NodeJS.ErrnoException).code ?? error}); skipped` });
    }
  }
  return { entries, warnings };
}
