import { watch, type FSWatcher } from "node:fs";
import { dirname, join } from "node:path";
import { locateOptionsOf, locateSource } from "../core/sources/index.js";
import { defaultConfig } from "../core/config.js";
import { toRootRelative } from "./paths.js";

const CONFIG = /^(package\.json|\.ctxinjectrc.*|ctxinject\.config\..*)$/;

/**
 * Calls `changed` (debounced) when an instruction file appears, changes or goes, in the folders that hold one and at
 * the root. Each folder is watched on its own (not the tree: a recursive watch would also watch node_modules); a
 * rules folder that appears in a new place is found by the next `follow`. `close` stops everything.
 */
export function watchRules(changed: () => void, debounceMs = 150): { follow(root: string, files: string[]): void; close(): void } {
  const watchers = new Map<string, FSWatcher>();
  const located = locateOptionsOf(defaultConfig());
  let timer: ReturnType<typeof setTimeout> | undefined;
  let root = "";
  const fire = () => {
    clearTimeout(timer);
    timer = setTimeout(changed, debounceMs);
  };
  // An instruction file or the config is a change; so is a new folder or dot-entry (`.cursor`, `rules`), which may
  // hold rules that the next reading follows.
  const counts = (rel: string, name: string) => locateSource(rel, located) !== null || CONFIG.test(name) || !name.includes(".") || name.startsWith(".");
  const onEvent = (dir: string) => (_event: string, name: string | Buffer | null) => {
    if (name === null) return fire();
    const rel = toRootRelative(root, join(dir, name.toString()));
    if (rel !== null && counts(rel, name.toString())) fire();
  };
  return {
    follow(newRoot, files) {
      root = newRoot;
      const dirs = new Set([newRoot, ...files.map((f) => dirname(join(newRoot, f)))]);
      for (const dir of dirs) {
        if (watchers.has(dir)) continue;
        try {
          const watcher = watch(dir, onEvent(dir));
          watcher.on("error", () => watchers.delete(dir));
          watchers.set(dir, watcher);
        } catch {
          // A folder that went away: nothing to watch.
        }
      }
    },
    close() {
      clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
