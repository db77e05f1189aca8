import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The Claude Code version the suite runs against (README "Claude Code"); bump it here, nowhere else. */
export const CLAUDE_CODE_VERSION = "2.1.330";

/** Where the suite keeps host CLIs between runs: they are large (Claude Code's binary is ~380 MB). */
export const HOSTS_CACHE = process.env.CTXINJECT_HOSTS_CACHE ?? join(homedir(), ".cache/ctxinject-hosts");

const PLATFORM_PACKAGE: Record<string, string> = { "linux-x64": "claude-code-linux-x64", "linux-arm64": "claude-code-linux-arm64", "darwin-arm64": "claude-code-darwin-arm64", "darwin-x64": "claude-code-darwin-x64" };

/**
 * The real `claude` binary, installed from npm into the cache on first use. npm 11 no longer runs the package's
 * postinstall (which copies the native binary over a placeholder), so the binary is taken from the platform
 * package npm installs beside it. Returns the reason instead when it cannot be had, or when there is no way to
 * run it without a network (`unshare -n`).
 */
export function claudeBinary(): { path: string } | { skip: string } {
  const pkg = PLATFORM_PACKAGE[`${process.platform}-${process.arch}`];
  if (!pkg) return { skip: `no Claude Code binary for ${process.platform}-${process.arch}` };
  const unshare = spawnSync("unshare", ["-n", "true"]);
  if (unshare.status !== 0) return { skip: "unshare -n is not available here (the suite runs the CLI only in a network namespace)" };
  const dir = join(HOSTS_CACHE, `claude-code-${CLAUDE_CODE_VERSION}`);
  const binary = join(dir, "node_modules/@anthropic-ai", pkg, "claude");
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    const install = spawnSync("npm", ["install", "--prefix", dir, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error", `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`], {
      encoding: "utf8",
      timeout: 15 * 60_000,
    });
    if (!existsSync(binary)) return { skip: `npm could not install @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}: ${(install.stderr || install.error?.message || "").trim().split("\n").pop()}` };
  }
  const version = spawnSync(binary, ["--version"], { encoding: "utf8", env: { PATH: process.env.PATH, HOME: dir } });
  if (!version.stdout?.startsWith(CLAUDE_CODE_VERSION)) return { skip: `${binary} --version said ${JSON.stringify(version.stdout ?? version.error?.message)}` };
  return { path: binary };
}
