/** Every agent profile, by the name `--as` takes: the one table explain, build and the hooks read. */
import { claudeCode } from "./claude-code.js";
import { codex } from "./codex.js";
import { copilot } from "./copilot.js";
import { cursor } from "./cursor.js";
import { geminiCli } from "./gemini-cli.js";
import { opencode } from "./opencode.js";
import type { AgentProfile } from "./profile.js";
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
