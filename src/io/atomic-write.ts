import { renameSync, writeFileSync } from "node:fs";

/**
 * Writes a file under a temp name beside it (this process's) and renames it into place: a reader sees the old file
 * or the new one, never half of one. The caller makes the folder.
 */
export function writeFileAtomically(path: string, text: string, mode?: number): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, mode === undefined ? undefined : { mode });
  renameSync(tmp, path);
}
