/** Instruction files put where their agent never looks: named for an agent, read by none. */
import type { Finding } from "./finding.js";

const INSTRUCTIONS_FOLDER = ".github/instructions/";
const CURSOR_RULES = ".cursor/rules";

/**
 * Tracked files whose name says which agent they are for, in a place that agent does not read: Copilot's
 * `*.instructions.md` outside `.github/instructions/` (a `.github/copilot-instructions/` folder is a common slip),
 * a `.cursor/rules` file instead of a folder, an `.mdc` rule outside any `.cursor/rules/` folder. No source module
 * claims such a file, so nothing else would say a word about it.
 */
export function placementChecks(tracked: readonly string[]): Finding[] {
  const findings: Finding[] = [];
  for (const path of tracked) {
    if (path.includes("node_modules/")) continue;
    if (path.endsWith(".instructions.md") && !path.startsWith(INSTRUCTIONS_FOLDER) && !path.includes(`/${INSTRUCTIONS_FOLDER}`)) {
      findings.push({ severity: "warning", kind: "misplaced", agent: "copilot", file: path, message: `Copilot reads *.instructions.md files only under ${INSTRUCTIONS_FOLDER} (or a folder named in your editor's settings): move it there or it is never read` });
    } else if (path === CURSOR_RULES || path.endsWith(`/${CURSOR_RULES}`)) {
      findings.push({ severity: "warning", kind: "misplaced", agent: "cursor", file: path, message: `a file named ${CURSOR_RULES}: Cursor reads rules from a ${CURSOR_RULES}/ folder of .mdc files, so this text is never read (move it into that folder as an .mdc rule)` });
    } else if (path.endsWith(".mdc") && !path.startsWith(`${CURSOR_RULES}/`) && !path.includes(`/${CURSOR_RULES}/`)) {
      findings.push({ severity: "warning", kind: "misplaced", agent: "cursor", file: path, message: `an .mdc rule outside any ${CURSOR_RULES}/ folder: Cursor never reads it there` });
    }
  }
  return findings;
}
