import { ancestorsOf, dirOf, joinPath, locate, overrideName, README, RULE_FILES, ruleDirs, type LocateOptions } from "../core/sources/locate.js";
import { listFiles } from "./git.js";

export interface DiscoverOptions extends LocateOptions {
  root: string;
  /** Ask git (tracked + untracked-not-ignored) when the root is inside a repository. */
  useGit: boolean;
  /** Every instruction file in the tree, or only those on the paths from the root to these targets. */
  scope: { all: true } | { all: false; targets: string[] };
}

const NEVER = /(^|\/)(node_modules|\.git)(\/|$)/;

/** Root-relative paths of the instruction files in scope, sorted; node_modules, .git and git-ignored paths never appear. */
export async function discover(options: DiscoverOptions): Promise<string[]> {
  const specs = options.scope.all ? everywhere(options) : onPaths(options, options.scope.targets);
  let paths: string[] | null = null;
  if (options.useGit) paths = listFiles(options.root, specs.map((s) => (options.scope.all ? `:(glob)${s}` : `:(literal)${s}`)));
  if (paths === null) paths = await walk(options.root, options.scope.all ? specs : specs.map(asGlob));
  return paths
    .filter((p) => !NEVER.test(p) && locate(p, options) !== null)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Names to look for in one directory: rules folders (whole), single-file rules, agents files, README. */
function namesIn(options: LocateOptions): string[] {
  return [
    ...ruleDirs(options).map((rd) => rd.dir),
    ...RULE_FILES.map((rf) => rf.file),
    ...options.agentFiles.flatMap((name) => [name, overrideName(name)]),
    README,
  ];
}

function everywhere(options: LocateOptions): string[] {
  return namesIn(options).map((name) => (/\.(md|mdc)$|^\.cursorrules$|\/\.cursorrules$/.test(name) ? `**/${name}` : `**/${name}/**`));
}

function onPaths(options: LocateOptions, targets: string[]): string[] {
  const dirs = new Set<string>();
  for (const target of targets.length > 0 ? targets : [""]) for (const dir of ancestorsOf(target === "" ? "" : dirOf(target))) dirs.add(dir);
  const names = namesIn(options);
  return [...dirs].sort().flatMap((dir) => names.map((name) => joinPath(dir, name)));
}

/** A literal path (file or folder) as a glob for the walk: folders match everything below. */
function asGlob(path: string): string {
  const escaped = path.replace(/[*?[\]{}()!@+]/g, "\\$&");
  return /\.(md|mdc)$|(^|\/)\.cursorrules$/.test(path) ? escaped : `${escaped}/**`;
}

async function walk(root: string, patterns: string[]): Promise<string[]> {
  const { default: fg } = await import("fast-glob");
  return fg(patterns, {
    cwd: root,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    suppressErrors: true,
    ignore: ["**/node_modules/**", "**/.git/**"],
  });
}
