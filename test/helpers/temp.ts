import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { test as uvuTest } from "uvu";

/** Temp folders a suite makes (`ctxinject-<prefix>-…`), all removed after it; `write` lays files into one. */
export function tempFolders(test: typeof uvuTest): { folder: (prefix: string) => string; write: (root: string, files: Record<string, string>) => void } {
  const made: string[] = [];
  test.after(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return {
    folder(prefix) {
      const dir = mkdtempSync(join(tmpdir(), `ctxinject-${prefix}-`));
      made.push(dir);
      return dir;
    },
    write(root, files) {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
      }
    },
  };
}
