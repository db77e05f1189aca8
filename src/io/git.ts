import { spawnSync } from "node:child_process";

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
