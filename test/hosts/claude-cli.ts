import { installHost, type Found } from "./harness.js";

/** The Claude Code version the suite runs against (README "Claude Code"); bump it here, nowhere else. */
export const CLAUDE_CODE_VERSION = "2.1.330";

const PLATFORM_PACKAGE: Record<string, string> = { "linux-x64": "claude-code-linux-x64", "linux-arm64": "claude-code-linux-arm64", "darwin-arm64": "claude-code-darwin-arm64", "darwin-x64": "claude-code-darwin-x64" };

/**
 * The real `claude` binary. npm 11 no longer runs the package's postinstall (which copies the native binary over a
 * placeholder), so the binary is taken from the platform package npm installs beside it.
 */
export function claudeBinary(): Found {
  const pkg = PLATFORM_PACKAGE[`${process.platform}-${process.arch}`];
  if (!pkg) return { skip: `no Claude Code binary for ${process.platform}-${process.arch}` };
  return installHost({ name: "@anthropic-ai/claude-code", version: CLAUDE_CODE_VERSION, binary: `@anthropic-ai/${pkg}/claude`, versionArgs: ["--version"] });
}
