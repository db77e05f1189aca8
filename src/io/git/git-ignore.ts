import { constants, existsSync } from "node:fs";
import { gitIgnoreMatcher, type IgnoreFile } from "../../core/gitignore.js";
import type { RunMemo } from "../../core/run-memo.js";
import { ancestorsOf, depthOf, dirOf, joinPath } from "../../core/rel-path.js";
import { readBoundedText } from "../fs/bounded-read.js";
import { entryAt, isDirectory, toRootRelative, under } from "../fs/paths.js";
import { ignoredByGit, type GitEnvironment } from "./git.js";

/**
 * Git's variables that move the repository, its index or its config (GIT_CONFIG_KEY_n counts only with
 * GIT_CONFIG_COUNT): where one is set, only git itself can say. Asked by name — listing the environment costs more.
 */
const GIT_ENV = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_COMMON_DIR",
  "GIT_INDEX_FILE",
  "GIT_CONFIG",
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_SYSTEM",
  "GIT_CONFIG_NOSYSTEM",
  "GIT_CONFIG_COUNT",
  "GIT_CONFIG_PARAMETERS",
];
export const gitMovedByEnv = (env: Record<string, string | undefined>): boolean => GIT_ENV.some((key) => env[key] !== undefined);
const NEEDS_GIT = /excludesfile|^\s*\[\s*include|worktreeconfig/im;
/** core.ignoreCase is read from the repository's config; set anywhere else, git decides. */
const mentionsIgnoreCase = (config: string): boolean => config.toLowerCase().includes("ignorecase");
/** System config files of common git builds (Debian and most Linux, /usr/local, Homebrew on Apple silicon). */
const SYSTEM_CONFIGS = ["/etc/gitconfig", "/usr/local/etc/gitconfig", "/opt/homebrew/etc/gitconfig"];

/**
 * Which root-relative paths git ignores, decided in-process from the ignore files git would read for them:
 * the default global excludes file, .git/info/exclude, and each .gitignore from the repository's top down to the
 * paths' folders. Spawning git for this cost about a tenth of a targeted build.
 *
 * Returns null when only git can say: a config file that names another excludes file or includes other config,
 * GIT_DIR-style overrides in the environment, a worktree or submodule (.git is a file), a repository nested in
 * the tree, or Windows. The caller then asks `git check-ignore`.
 */
export function ignoreMatcher(
  gitTop: string,
  root: string,
  paths: string[],
  env: NodeJS.ProcessEnv,
  platform: string,
  memo?: RunMemo,
): ((path: string) => boolean) | null {
  const home = env.HOME;
  if (platform === "win32" || !home || gitMovedByEnv(env)) return null;
  const gitDir = under(gitTop, ".git");
  if (!isDirectory(gitDir)) return null;
  const configDir = env.XDG_CONFIG_HOME || under(home, ".config");
  const repoConfig = readOptional(under(gitDir, "config")) ?? "";
  const configs = [...SYSTEM_CONFIGS, under(configDir, "git/config"), under(home, ".gitconfig")].map(readOptional);
  if ([...configs, repoConfig].some((text) => text !== null && NEEDS_GIT.test(text))) return null;
  if (configs.some((text) => text !== null && mentionsIgnoreCase(text))) return null;

  const prefix = toRootRelative(gitTop, root);
  if (prefix === null) return null;
  const fromTop = (path: string) => joinPath(prefix, path);
  const dirs = new Set<string>();
  for (const path of paths) for (const dir of ancestorsOf(dirOf(fromTop(path)))) dirs.add(dir);
  const ordered = [...dirs].sort((a, b) => depthOf(a) - depthOf(b));
  if (ordered.some((dir) => dir !== "" && existsSync(under(gitTop, joinPath(dir, ".git"))))) return null;

  const files: IgnoreFile[] = [];
  const add = (dir: string, text: string | null) => {
    if (text !== null) files.push({ dir, text });
  };
  add("", readOptional(under(configDir, "git/ignore")));
  add("", readOptional(under(gitDir, "info/exclude")));
  // Git (2.32+) does not read a .gitignore inside the tree that is a symbolic link: O_NOFOLLOW refuses it too.
  for (const dir of ordered) add(dir, readOptional(under(gitTop, joinPath(dir, ".gitignore")), constants.O_NOFOLLOW));
  const ignored = gitIgnoreMatcher(files, {
    ignoreCase: mentionsIgnoreCase(repoConfig) && /^\s*ignorecase\s*=\s*true\s*$/im.test(repoConfig),
    ...(memo !== undefined && { memo }),
  });
  return (path) => ignored(fromTop(path));
}

function readOptional(path: string, extraFlags = 0): string | null {
  // Most of the files asked for do not exist: a stat that answers "none" costs less than the error a failed open
  // throws (a dozen per build). A .gitignore that is a link loop is none, as git reads no linked .gitignore.
  if (entryAt(path) === undefined) return null;
  try {
    // Bounded: an ignore file or a config that is a FIFO, a device or a huge file is read as git reads a FIFO
    // (nothing), not waited on or held in memory.
    return readBoundedText(path, { noFollow: extraFlags !== 0 });
  } catch {
    return null;
  }
}

/** Git's ignore decision over `paths`: answered here where it can be (ignoreMatcher), else by `git check-ignore`. */
export function gitIgnored(gitTop: string, root: string, paths: string[], env: GitEnvironment, platform: string, memo?: RunMemo): (path: string) => boolean {
  return ignoreMatcher(gitTop, root, paths, env, platform, memo) ?? ignoredByGit(root, paths, env);
}
