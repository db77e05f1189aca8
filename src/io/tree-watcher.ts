import type { FSWatcher } from "chokidar";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { locateOptionsOf, sourceLocator } from "../core/sources/index.js";
import type { Config } from "../core/config.js";
import { CONFIG_FILES } from "./config/config.js";
import { lazyRequire } from "./lazy-node.js";
import { toRootRelative } from "./fs/paths.js";

type Chokidar = typeof import("chokidar");

/**
 * Calls `changed` (debounced, once for a burst) when what a build reads changes under `root`: an instruction file
 * appears, changes, goes or is renamed; the config; a .gitignore; git's index (a new rule counts for --all once
 * added). chokidar, loaded here only: Node 20's recursive fs.watch on Linux walks and watches every folder,
 * node_modules and .git included, with no way to leave them out; chokidar leaves them out and uses inotify, so the
 * process is idle at rest.
 */
export function watchTree(root: string, config: Config, changed: () => void, debounceMs = 200): { ready: Promise<void>; close(): Promise<void> } {
  const { watch } = lazyRequire<Chokidar>("chokidar");
  // One locator for the watch: each path it is told of is worked out once.
  const locate = sourceLocator(locateOptionsOf(config));
  const configNames = new Set<string>(CONFIG_FILES);
  const relevant = (abs: string) => {
    const rel = toRootRelative(root, abs);
    if (rel === null) return false;
    const name = rel.slice(rel.lastIndexOf("/") + 1);
    return rel === ".git/index" || name === ".gitignore" || (!rel.includes("/") && configNames.has(name)) || locate(rel) !== null;
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  // git's index only where there is one: chokidar would look for a missing path again and again.
  const index = join(root, ".git/index");
  const watcher: FSWatcher = watch(existsSync(index) ? [root, index] : [root], {
    ignoreInitial: true,
    ignored: (path: string) => /[\\/](node_modules|\.git)([\\/]|$)/.test(path) && !path.endsWith(`${join(".git", "index")}`),
  });
  watcher.on("all", (_event: string, path: string) => {
    if (!relevant(path)) return;
    clearTimeout(timer);
    timer = setTimeout(changed, debounceMs);
  });
  return {
    // Until chokidar's first scan ends, a change in a folder it has not reached yet is never reported.
    ready: new Promise<void>((resolve) => watcher.once("ready", () => resolve())),
    close: async () => {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
