/** goose: `.goosehints` per folder (goose reads them from the working folder up to the repository top). */
import { agentFileModule } from "./agents.js";

export const gooseHints = agentFileModule("goosehints", [".goosehints"]);
