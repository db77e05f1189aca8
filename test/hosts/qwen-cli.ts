/** What both Qwen Code suites (what it loads itself; ctxinject installed) need of the real CLI. */
import { installHost } from "./harness.js";
import { HOST_VERSIONS } from "./versions.js";

/** Pinned in versions.ts, with every other host. */
export const QWEN_VERSION = HOST_VERSIONS["qwen-code"];

export const qwenBinary = () =>
  installHost({ name: "@qwen-code/qwen-code", version: QWEN_VERSION, binary: "@qwen-code/qwen-code/cli-entry.js", versionArgs: ["--version"] });

/** The user's settings: the OpenAI-compatible provider, no trust prompt, nothing phoning home. */
export const QWEN_SETTINGS = {
  security: { auth: { selectedType: "openai" }, folderTrust: { enabled: false } },
  memory: { enableManagedAutoMemory: false },
  general: { disableAutoUpdate: true, disableUpdateNag: true },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
};
