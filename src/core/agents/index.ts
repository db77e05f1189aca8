/**
 * The profiles of agents ctxinject has no host for (no hook or plugin: their files are read like any other
 * source); `--as` takes them too. Hosts' profiles join them in src/hosts/index.ts, which builds the one table.
 * (Cline, Droid, Kilo, Qwen Code, Copilot CLI and the Cursor CLI are proven profiles waiting for their host files.)
 */
import { cline } from "./cline.js";
import { copilot } from "./copilot.js";
import { copilotCli } from "./copilot-cli.js";
import { cursor } from "./cursor.js";
import { droid } from "./droid.js";
import { kiro } from "./kiro.js";
import type { AgentProfile } from "./profile.js";
import { qwenCode } from "./qwen-code.js";
import { windsurf } from "./windsurf.js";

/** `short`: another name people type for it. */
export const READ_ONLY_AGENTS: ReadonlyArray<{ profile: AgentProfile; short?: string }> = [
  { profile: cline },
  { profile: copilot, short: "github-copilot" },
  { profile: copilotCli },
  { profile: cursor },
  { profile: droid },
  { profile: kiro },
  { profile: qwenCode, short: "qwen" },
  { profile: windsurf },
];
