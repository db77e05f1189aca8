import { renameSync, writeFileSync } from "node:fs";

/**
 * Writes a file under a temp name beside it (this process's) and renames it into place: a reader sees the old file
 * or the new one, never half of one. The caller makes the folder. Its callers keep the user's state (the trust
 * list, the warm cache, the hook spool): the file is the user's alone (0600) whatever the umask.
 */
export function writeFileAtomically(path: string, text: string, mode = 0o600): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode });
  renameSync(tmp, path);
}
