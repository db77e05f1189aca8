/**
 * The profiles of agents ctxinject has no host for (no hook or plugin: their files are read like any other
 * source); `--as` takes them too. Hosts' profiles join them in src/hosts/index.ts, which builds the one table.
 * (Kilo and the Cursor CLI are proven profiles waiting for their host files.)
 */
import { copilot } from "./copilot.js";
import { cursor } from "./cursor.js";
import { cursorAgent } from "./cursor-agent.js";
import { kilo } from "./kilo.js";
import { kiro } from "./kiro.js";
import type { AgentProfile } from "./profile.js";
import { windsurf } from "./windsurf.js";

/** `short`: another name people type for it. */
export const READ_ONLY_AGENTS: ReadonlyArray<{ profile: AgentProfile; short?: string }> = [
  { profile: copilot, short: "github-copilot" },
  { profile: cursor },
  { profile: cursorAgent },
  { profile: kilo },
  { profile: kiro },
  { profile: windsurf },
];
