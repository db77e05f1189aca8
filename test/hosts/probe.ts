/**
 * What the probe suites of the hosts without a ctxinject adapter yet share: a project whose instruction files each
 * carry a marker (fixtures/native-instructions), a logging hook (probe-hook.mjs) installed the host's own way, and
 * the events it recorded. They prove what a host loads by itself and which event's text reaches the model — the
 * facts test/hosts/PROFILES.md records for the adapters.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { materialize, REPO } from "../helpers/cli.js";

/** Every marker of fixtures/native-instructions, by the file that carries it. */
export const NATIVE = {
  agents: "MARK-N-AGENTS",
  claude: "MARK-N-CLAUDE",
  gemini: "MARK-N-GEMINI",
  qwen: "MARK-N-QWEN",
  copilot: "MARK-N-COPILOT",
  copilotScoped: "MARK-N-COPILOT-SCOPED",
  clinerules: "MARK-N-CLINERULES",
  cursor: "MARK-N-CURSOR",
  kiloRules: "MARK-N-KILO-RULES",
  apiAgents: "MARK-N-API-AGENTS",
  apiClaude: "MARK-N-API-CLAUDE",
} as const;

/** The nested file the scripted tool call reads: its folder holds AGENTS.md and CLAUDE.md. */
export const NESTED_FILE = "packages/api/src/handler.ts";

/** A git copy of the fixture (hosts look for the repository root). */
export const nativeProject = (): string => materialize("native-instructions");

/** The command line that runs the logging hook for `event`, answering in `shape` (see probe-hook.mjs). */
export const hookCommand = (log: string, shape: "copilot" | "claude" | "cline", event: string): string =>
  `${JSON.stringify(process.execPath)} ${JSON.stringify(join(REPO, "test/hosts/probe-hook.mjs"))} ${JSON.stringify(log)} ${shape} ${event}`;

/** The marker a probe hook's answer for `event` carries. */
export const hookMarker = (event: string): string => `MARK-HOOK-${event}`;

export interface Fired {
  event: string;
  input: Record<string, unknown> | null;
}

/** The events the logging hook recorded, in order. */
export function fired(log: string): Fired[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Fired);
}
