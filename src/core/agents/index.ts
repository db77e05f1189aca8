/** Every agent profile, by the name `--as` takes: the one table explain, build and the hooks read. */
import { claudeCode } from "./claude-code.js";
import { codex, codexProfile } from "./codex.js";
import { copilot } from "./copilot.js";
import { cursor } from "./cursor.js";
import { geminiCli, geminiCliProfile } from "./gemini-cli.js";
import { opencode, opencodeProfile } from "./opencode.js";
import type { AgentProfile, AgentSettings } from "./profile.js";
import { windsurf } from "./windsurf.js";

export const AGENT_PROFILES: Readonly<Record<string, AgentProfile>> = {
  "claude-code": claudeCode,
  codex,
  cursor,
  copilot,
  "gemini-cli": geminiCli,
  opencode,
  windsurf,
};

export const AGENT_NAMES = Object.keys(AGENT_PROFILES);

const CONFIGURABLE: Readonly<Record<string, (settings: AgentSettings) => AgentProfile>> = {
  codex: codexProfile,
  "gemini-cli": geminiCliProfile,
  opencode: opencodeProfile,
};

/** The named agent's profile as its own settings have it; its defaults when it has none that matter. */
export function profileFor(name: string, settings: AgentSettings = {}): AgentProfile | undefined {
  const make = CONFIGURABLE[name];
  return make && Object.keys(settings).length > 0 ? make(settings) : AGENT_PROFILES[name];
}
