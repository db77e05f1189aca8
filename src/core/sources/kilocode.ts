/**
 * Kilo Code (the editor extension, and the Kilo CLI): `.kilocode/rules/` always; `.kilocode/rules-{mode}/` for the
 * mode in use (Kilo Code took its modes from Roo Code).
 */
import { ruleModule } from "./rules.js";

export const kilocodeRules = ruleModule({
  name: "kilocode",
  files: (options) => ({ folders: [".kilocode/rules", ...(options.mode ? [`.kilocode/rules-${options.mode}`] : [])], names: [] }),
  always: "Kilo Code reads every file of its rules folders",
});
