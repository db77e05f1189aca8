/**
 * The version of each real host CLI the suites in test/hosts run against, by its profile's name (core/agents):
 * bump one here and its suite installs it into a cache folder of its own, and test/unit/agent-profiles.test.ts asks
 * for the profile proven again (each observed profile carries the version it was proven with).
 */
export const HOST_VERSIONS = {
  "claude-code": "2.1.330",
  codex: "0.169.0",
  "gemini-cli": "0.61.0",
  opencode: "1.18.33",
  "copilot-cli": "1.0.102",
  /** Pinned: unpinned on Node 20, npm silently takes 0.15.10. */
  "qwen-code": "0.24.4",
  droid: "0.215.0",
  cline: "3.0.65",
  /** 7.8.1 (the latest) is not installable from this registry. */
  kilo: "7.7.7",
} as const;
