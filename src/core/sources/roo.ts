/** Roo Code: `.roo/rules/` and `.roorules` always; `.roo/rules-{mode}/` and `.roorules-{mode}` for the mode in use. */
import { ruleModule } from "./rules.js";

export const rooRules = ruleModule({
  name: "roo",
  files: (options) => ({
    folders: [".roo/rules", ...(options.mode ? [`.roo/rules-${options.mode}`] : [])],
    names: [".roorules", ...(options.mode ? [`.roorules-${options.mode}`] : [])],
  }),
  always: "Roo Code reads every file of its rules folders",
});
