/** Every agent profile, by the name `--as` takes: the one table explain, build and the hooks read. */
import { claudeCode } from "./claude-code.js";
import { codex, codexProfile } from "./codex.js";
import { cline } from "./cline.js";
import { copilot } from "./copilot.js";
import { copilotCli } from "./copilot-cli.js";
import { cursor } from "./cursor.js";
import { cursorAgent } from "./cursor-agent.js";
import { droid } from "./droid.js";
import { geminiCli, geminiCliProfile } from "./gemini-cli.js";
import { kilo } from "./kilo.js";
import { kiro } from "./kiro.js";
import { opencode, opencodeProfile } from "./opencode.js";
import type { AgentProfile, AgentSettings } from "./profile.js";
import { qwenCode } from "./qwen-code.js";
import { windsurf } from "./windsurf.js";

export const AGENT_PROFILES: Readonly<Record<string, AgentProfile>> = {
  "claude-code": claudeCode,
  cline,
  codex,
  cursor,
  "cursor-agent": cursorAgent,
  copilot,
  "copilot-cli": copilotCli,
  droid,
  "gemini-cli": geminiCli,
  kilo,
  kiro,
  opencode,
  "qwen-code": qwenCode,
  windsurf,
};

export const AGENT_NAMES = Object.keys(AGENT_PROFILES);

/**
 * The short names people type (`init --claude`, `hook claude`): each is the same agent as its profile's name, in
 * `--as`, `hook` and `init` alike.
 */
const SHORT_NAMES: Readonly<Record<string, string>> = { claude: "claude-code", gemini: "gemini-cli", "github-copilot": "copilot", qwen: "qwen-code" };

/** Every name an agent is accepted by: profile names first, then short names. */
export const AGENT_NAMES_ACCEPTED = [...AGENT_NAMES, ...Object.keys(SHORT_NAMES)];

/** The profile name for an agent's name or short name (any case), or undefined for none. */
export function agentName(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (Object.hasOwn(AGENT_PROFILES, lower)) return lower;
  return Object.hasOwn(SHORT_NAMES, lower) ? SHORT_NAMES[lower] : undefined;
}

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
