import { lstatSync, realpathSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import { pathFolderOf } from "./hook-settings.js";
import { readJsonObject } from "../fs/out-file.js";
import { projectFile } from "../fs/confine.js";
import { spawnSync } from "../lazy-node.js";
import { realOrSelf, toRootRelative } from "../fs/paths.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * A dependency spec npm fetches from the registry: a version, range or tag (no `/`, `:` or `\`, not a path), or an
 * `npm:` alias of one. Anything else is a file, a link, a git repository or a URL: code npm would take from where the
 * repository says.
 */
export function isRegistrySpec(spec: unknown): boolean {
  if (typeof spec !== "string") return false;
  const alias = /^npm:((?:@[^/@]+\/)?[^/@:\\]+)(?:@(.*))?$/.exec(spec);
  const range = alias ? (alias[2] ?? "") : spec;
  return !/[/:\\]/.test(range) && !range.startsWith(".");
}

const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"] as const;

/** `overrides` values: a spec, `$name` (the root's own spec for it), or a nested object of the same. */
function badOverride(value: unknown, at: string): string | null {
  if (typeof value === "string") return value.startsWith("$") || isRegistrySpec(value) ? null : at;
  if (value === null || typeof value !== "object") return at;
  for (const [key, inner] of Object.entries(value)) {
    const found = badOverride(inner, `${at}.${key}`);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Why npm must not install in a host's config folder a repository wrote (`shown` names it), or null. npm runs the
 * root package's scripts, installs `file:`, link, git and URL dependencies from wherever they point (a git one runs
 * its `prepare`), and reads the folder's `.npmrc` (another registry, scripts back on): ctxinject runs no repository
 * code, so a folder holding any of these is left to its user.
 */
export function npmInstallRefusal(dir: string, shown: string, root: string): string | null {
  const real = realOrSelf(dir);
  if (toRootRelative(realOrSelf(root), real) === null) return `${shown} leads out of the project (${real})`;
  if (lstatSync(join(dir, ".npmrc"), { throwIfNoEntry: false }) !== undefined) return `${shown}/.npmrc configures npm there`;
  const manifest = readJsonObject(projectFile(root, join(dir, "package.json"))) ?? {};
  const scripts = manifest.scripts;
  if (scripts !== null && typeof scripts === "object" && Object.keys(scripts).length > 0)
    return `${shown}/package.json has scripts (${Object.keys(scripts).slice(0, 3).join(", ")})`;
  if (manifest.workspaces !== undefined) return `${shown}/package.json has workspaces`;
  for (const field of DEPENDENCY_FIELDS) {
    const deps = (manifest[field] ?? {}) as Record<string, unknown>;
    for (const [name, spec] of Object.entries(deps)) {
      if (!isRegistrySpec(spec)) return `${shown}/package.json's ${field} takes ${name} from outside the registry (${String(spec).slice(0, 60)})`;
    }
  }
  const override = manifest.overrides === undefined ? null : badOverride(manifest.overrides, "overrides");
  if (override !== null) return `${shown}/package.json's ${override} is not a registry version`;
  for (const lockName of ["package-lock.json", "npm-shrinkwrap.json"]) {
    const packages = (readJsonObject(projectFile(root, join(dir, lockName)))?.packages ?? {}) as Record<string, { resolved?: unknown; link?: unknown }>;
    for (const [path, entry] of Object.entries(packages)) {
      if (path === "" || entry === null || typeof entry !== "object") continue;
      const resolved = entry.resolved;
      if (entry.link === true || (resolved !== undefined && (typeof resolved !== "string" || !/^https?:\/\//.test(resolved)))) {
        return `${shown}/${lockName} takes ${path} from outside the registry`;
      }
    }
  }
  return null;
}

/**
 * The environment npm runs in: no `npm_config_*` variable (npx and `npm run` export the configuration they read,
 * a project's .npmrc included, through them), and a PATH without node_modules/.bin folders (npx puts the project's
 * there, where a repository may ship its own `npm` or `node`) or relative folders.
 */
export function npmEnvironment(env: Env, platform: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined && !/^npm_config_/i.test(key)) out[key] = value;
  for (const key of platform === "win32" ? ["Path", "PATH"] : ["PATH"]) {
    const path = out[key];
    if (path === undefined) continue;
    const sep = platform === "win32" ? ";" : delimiter;
    out[key] = path
      .split(sep)
      .filter((folder) => folder !== "" && isAbsolute(folder) && !/[\\/]node_modules[\\/]\.bin[\\/]?$/.test(folder))
      .join(sep);
  }
  return out;
}

/**
 * The npm to run, found on the cleaned PATH: its CLI script run by this very Node (no `node` looked up on a PATH),
 * or, for an npm that is no script (a version manager's shim), that program by its path. Null when there is none.
 */
function npmProgram(env: Record<string, string>, platform: string): { file: string; args: string[] } | null {
  const folder = pathFolderOf("npm", env, platform);
  if (folder === null) return null;
  const scripts = [join(folder, "node_modules/npm/bin/npm-cli.js")];
  try {
    scripts.unshift(realpathSync(join(folder, "npm")));
  } catch {
    // Windows: npm.cmd beside node_modules/npm.
  }
  const script = scripts.find((file) => file.endsWith(".js") && lstatSync(file, { throwIfNoEntry: false })?.isFile() === true);
  if (script !== undefined) return { file: process.execPath, args: [script] };
  return platform === "win32" ? null : { file: join(folder, "npm"), args: [] };
}

export interface NpmRun {
  ok: boolean;
  /** npm's last line of error, or why it did not run. */
  error: string;
}

/** `npm install` in `dir` with no lifecycle script, and with the user's npm configuration only (see npmEnvironment). */
export function npmInstall(dir: string, env: Env, platform: string): NpmRun {
  const clean = npmEnvironment(env, platform);
  const npm = npmProgram(clean, platform);
  if (npm === null) return { ok: false, error: "no npm on PATH" };
  const args = [...npm.args, "install", "--prefix", dir, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"];
  const run = spawnSync(npm.file, args, { cwd: dir, encoding: "utf8", env: clean as NodeJS.ProcessEnv });
  return { ok: run.status === 0, error: (run.stderr || run.error?.message || "").trim().split("\n").pop() ?? "" };
}
