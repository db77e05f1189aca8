/** Cline: `.clinerules` as one file, or a folder of `.md`/`.txt` rules where `paths` makes a rule conditional. */
import { only, ruleModule } from "./rules.js";

/** Folders of `.clinerules` that hold no rules: Cline's own loader leaves out its workflows, hooks and skills. */
const NOT_RULES = /^(?:workflows|hooks|skills)\//;

export const clineRules = ruleModule({
  name: "cline",
  files: only({ folders: [".clinerules"], accepts: (n) => (n.endsWith(".md") || n.endsWith(".txt")) && !NOT_RULES.test(n) }),
  globFields: ["paths"],
  alwaysWithoutGlobs: ".clinerules file without paths",
});
export const clinerulesFile = ruleModule({ name: "clinerules", files: only({ names: [".clinerules"] }), always: "a .clinerules file always applies" });
