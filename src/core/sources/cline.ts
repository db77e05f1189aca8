/** Cline: `.clinerules` as one file, or a folder of `.md`/`.txt` rules where `paths` makes a rule conditional. */
import { only, ruleModule } from "./rules.js";

export const clineRules = ruleModule({
  name: "cline",
  files: only({ folders: [".clinerules"], accepts: (n) => n.endsWith(".md") || n.endsWith(".txt") }),
  globFields: ["paths"],
  alwaysWithoutGlobs: ".clinerules file without paths",
});
export const clinerulesFile = ruleModule({ name: "clinerules", files: only({ names: [".clinerules"] }), always: "a .clinerules file always applies" });
