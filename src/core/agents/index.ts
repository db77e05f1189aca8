/**
 * The profiles of agents ctxinject has no host for (no hook or plugin: their files are read like any other
 * source); `--as` takes them too. Hosts' profiles join them in src/hosts/index.ts, which builds the one table.
 */
import { copilot } from "./copilot.js";
import { cursor } from "./cursor.js";
import { kiro } from "./kiro.js";
import type { AgentProfile } from "./profile.js";
import { windsurf } from "./windsurf.js";

/** `short`: another name people type for it. */
export const READ_ONLY_AGENTS: ReadonlyArray<{ profile: AgentProfile; short?: string }> = [{ profile: cursor }, { profile: copilot, short: "github-copilot" }, { profile: kiro }, { profile: windsurf }];
