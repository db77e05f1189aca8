/** JetBrains Junie: `.junie/guidelines.md`, always. */
import { only, ruleModule } from "./rules.js";

export const junieGuidelines = ruleModule({
  name: "junie",
  files: only({ names: [".junie/guidelines.md"] }),
  always: "Junie reads .junie/guidelines.md always",
});
