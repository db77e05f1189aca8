import { existsSync } from "node:fs";
import { dirname, relative } from "node:path";
import type { ProjectInstall } from "../../core/command-line.js";
import { projectFile, readTarget } from "../fs/confine.js";
import { findUp, hasGit, runnableFile, toRootRelative, under } from "../fs/paths.js";

/**
 * The project's own ctxinject, found as its package manager lays it out: `node_modules/.bin/ctxinject` in the
 * project folder (npm, yarn classic, pnpm, bun: each links its bins there), else in a folder above it within the
 * repository (a package of a workspace whose dependencies are installed at the workspace's root: `pnpm add -w`, npm
 * and yarn workspaces hoisting); else a Yarn Plug'n'Play project (a `.pnp.cjs`, no node_modules) whose package.json
 * depends on ctxinject. Null when the project has none. Nothing found here runs now; init only names it.
 */
export function findProjectInstall(root: string, platform: string): ProjectInstall | null {
  const top = findUp(root, hasGit);
  const folders: string[] = [];
  for (let dir = root; ; dir = dirname(dir)) {
    folders.push(dir);
    // Only folders of the repository: one above it is no project's to name.
    if (top === null || dir === top || toRootRelative(top, dir) === null || dirname(dir) === dir) break;
  }
  for (const dir of folders) {
    const bin = binIn(dir, platform);
    if (bin === null) continue;
    const up = relative(root, dir)
      .split(/[\\/]/)
      .filter((part) => part !== "")
      .join("/");
    return { bin: `${up === "" ? "" : `${up}/`}node_modules/.bin/${bin}`, manager: managerOf(folders, dir) };
  }
  for (const dir of folders) {
    if (!existsSync(under(dir, ".pnp.cjs")) && !existsSync(under(dir, ".pnp.js"))) continue;
    if (dependsOnCtxinject(dir)) return { runner: "yarn", manager: "Yarn Plug'n'Play" };
  }
  return null;
}

/** The name of ctxinject's bin in `dir`'s node_modules/.bin that runs (a dangling link does not), or null. */
function binIn(dir: string, platform: string): string | null {
  const names = platform === "win32" ? ["ctxinject.cmd", "ctxinject"] : ["ctxinject"];
  for (const name of names) {
    // Windows finds `ctxinject.cmd` by its extension: the command names it as `ctxinject` either way.
    if (runnableFile(under(dir, `node_modules/.bin/${name}`), platform) === "runs") return platform === "win32" ? "ctxinject" : name;
  }
  return null;
}

/** Which package manager laid out `dir`'s node_modules, by the lockfile of the project or a workspace above it. */
function managerOf(folders: readonly string[], from: string): string {
  for (const dir of folders.slice(folders.indexOf(from))) {
    if (existsSync(under(dir, "pnpm-lock.yaml")) || existsSync(under(dir, "pnpm-workspace.yaml")) || existsSync(under(dir, "node_modules/.modules.yaml")))
      return "pnpm";
    if (existsSync(under(dir, "bun.lock")) || existsSync(under(dir, "bun.lockb"))) return "bun";
    if (existsSync(under(dir, "yarn.lock")) || existsSync(under(dir, ".yarnrc.yml"))) return "yarn";
    if (existsSync(under(dir, "package-lock.json"))) return "npm";
  }
  return "npm";
}

/** Whether `dir`'s package.json lists ctxinject among its dependencies (read bounded, through no link). */
function dependsOnCtxinject(dir: string): boolean {
  try {
    const manifest = JSON.parse(readTarget(projectFile(dir, "package.json")) ?? "{}") as Record<string, unknown>;
    return ["dependencies", "devDependencies", "optionalDependencies"].some((key) => {
      const deps = manifest[key];
      return deps !== null && typeof deps === "object" && Object.hasOwn(deps, "ctxinject");
    });
  } catch {
    return false;
  }
}
