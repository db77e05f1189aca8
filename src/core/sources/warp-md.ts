/** Warp: WARP.md per folder. */
import { agentFileModule } from "./agents.js";

export const warpRules = agentFileModule("warp-md", ["WARP.md"]);
