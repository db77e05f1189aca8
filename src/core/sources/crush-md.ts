/** Crush: CRUSH.md per folder. */
import { agentFileModule } from "./agents.js";

export const crushContext = agentFileModule("crush-md", ["CRUSH.md"]);
