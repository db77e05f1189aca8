import { join } from "node:path";
import { installHost, type Found } from "./harness.js";
import { HOST_VERSIONS } from "./versions.js";

/** Pinned in versions.ts, with every other host. */
export const CLAUDE_CODE_VERSION = HOST_VERSIONS["claude-code"];

const PLATFORM_PACKAGE: Record<string, string> = {
  "linux-x64": "claude-code-linux-x64",
  "linux-arm64": "claude-code-linux-arm64",
  "darwin-arm64": "claude-code-darwin-arm64",
  "darwin-x64": "claude-code-darwin-x64",
};

/**
 * The real `claude` binary. npm 11 no longer runs the package's postinstall (which copies the native binary over a
 * placeholder), so the binary is taken from the platform package npm installs beside it.
 */
export function claudeBinary(): Found {
  const pkg = PLATFORM_PACKAGE[`${process.platform}-${process.arch}`];
  if (!pkg) return { skip: `no Claude Code binary for ${process.platform}-${process.arch}` };
  return installHost({ name: "@anthropic-ai/claude-code", version: CLAUDE_CODE_VERSION, binary: `@anthropic-ai/${pkg}/claude`, versionArgs: ["--version"] });
}

/** Claude Code's environment for a run against the fake API: no telemetry, no updates, no traffic of its own. */
export function claudeEnv(work: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: "{{API}}",
    ANTHROPIC_API_KEY: "sk-ant-fake-key-for-tests",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_BUG_COMMAND: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: "1",
    CTXINJECT_STATE_DIR: join(work, "state"),
    ...extra,
  };
}
