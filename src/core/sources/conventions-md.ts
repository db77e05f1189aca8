/** aider: CONVENTIONS.md, the file its documentation has users load with `--read`. */
import { agentFileModule } from "./agents.js";

export const aiderConventions = agentFileModule("conventions-md", ["CONVENTIONS.md"]);
