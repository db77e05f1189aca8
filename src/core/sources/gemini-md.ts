/** Gemini CLI: GEMINI.md per folder (other names through `agents.files`). */
import { agentFileModule } from "./agents.js";

export const geminiContext = agentFileModule("gemini-md", ["GEMINI.md"]);
