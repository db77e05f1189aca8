import { spawnSync } from "./lazy-node.js";

/** Runs git in cwd; null when git is missing or fails (discover then walks the tree itself). */
export function git(cwd: string, args: string[]): { ok: true; stdout: string } | { ok: false; stderr: string } {
  const result = spawnSync("git", ["-c", "core.quotepath=off", ...args], {
    cwd,
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
    windowsHide: true,
  });
  if (result.error || result.status !== 0) {
    return { ok: false, stderr: (result.stderr || result.error?.message || "git failed").trim() };
  }
  return { ok: true, stdout: result.stdout };
}

export function splitNul(stdout: string): string[] {
  return stdout.split("\0").filter((line) => line !== "");
}

/** The files in git's index (tracked, or staged to be) under cwd, limited by pathspecs; null when git cannot say. */
export function trackedFiles(cwd: string, pathspecs: string[]): string[] | null {
  const result = git(cwd, ["ls-files", "-z", "--cached", "--", ...pathspecs]);
  return result.ok ? [...new Set(splitNul(result.stdout))] : null;
}

/**
 * Git's own answer to which of these root-relative paths it ignores (`check-ignore --no-index`: the ignore rules
 * alone, so a tracked file under an ignore rule counts as ignored). When git cannot say, nothing is ignored.
 */
export function ignoredByGit(root: string, paths: string[]): (path: string) => boolean {
  const result = spawnSync("git", ["check-ignore", "--no-index", "-z", "--stdin"], { cwd: root, input: paths.join("\0"), encoding: "utf8" });
  // Exit 1 means nothing is ignored; anything else but 0 means git could not say.
  const ignored = new Set(result.status === 0 ? splitNul(result.stdout) : []);
  return (path) => ignored.has(path);
}
