/** Instruction files put where their agent never looks: named for an agent, read by none. */
import type { Finding } from "./finding.js";

const INSTRUCTIONS_FOLDER = ".github/instructions/";
const CURSOR_RULES = ".cursor/rules";

interface Placement {
  /** Every file git tracks (a symlink is one of them, whatever it points at). */
  tracked: readonly string[];
  /** Whether a tracked path is a folder (a symlink to one): a `.cursor/rules` link to a rules folder is one. */
  isFolder(path: string): boolean;
  /** The real paths of instruction files read through a link (`.cursor/rules -> ../.agents/rules`): read, so placed. */
  readThroughLinks: ReadonlySet<string>;
  /** Words that name an agent (`cursor`, `claude`…): a folder holding none of them is no agent's. */
  agentWords: readonly string[];
}

/**
 * Tracked files whose name says which agent they are for, in a place that agent does not read: Copilot's
 * `*.instructions.md` outside `.github/instructions/` (a `.github/copilot-instructions/` folder is a common slip),
 * a `.cursor/rules` file instead of a folder, an `.mdc` rule outside any `.cursor/rules/` folder. No source module
 * claims such a file, so nothing else would say a word about it. A file an agent reads through a link is placed; an
 * `.mdc` in a folder no agent's name is in (a tool's own `assets/rules/` templates) is information only.
 */
export function placementChecks(input: Placement): Finding[] {
  const findings: Finding[] = [];
  for (const path of input.tracked) {
    if (path.includes("node_modules/")) continue;
    if (path.endsWith(".instructions.md") && !path.startsWith(INSTRUCTIONS_FOLDER) && !path.includes(`/${INSTRUCTIONS_FOLDER}`)) {
      findings.push({
        severity: "warning",
        kind: "misplaced",
        agent: "copilot",
        file: path,
        message: `Copilot reads *.instructions.md files only under ${INSTRUCTIONS_FOLDER} (or a folder named in your editor's settings): move it there or it is never read`,
      });
    } else if (path === CURSOR_RULES || path.endsWith(`/${CURSOR_RULES}`)) {
      if (input.isFolder(path)) continue;
      findings.push({
        severity: "warning",
        kind: "misplaced",
        agent: "cursor",
        file: path,
        message: `a file named ${CURSOR_RULES}: Cursor reads rules from a ${CURSOR_RULES}/ folder of .mdc files, so this text is never read (move it into that folder as an .mdc rule)`,
      });
    } else if (path.endsWith(".mdc") && !path.startsWith(`${CURSOR_RULES}/`) && !path.includes(`/${CURSOR_RULES}/`)) {
      if (input.readThroughLinks.has(path)) continue;
      const folder = path.slice(0, path.lastIndexOf("/") + 1).toLowerCase();
      findings.push(
        input.agentWords.some((word) => folder.includes(word))
          ? {
              severity: "warning",
              kind: "misplaced",
              agent: "cursor",
              file: path,
              message: `an .mdc rule outside any ${CURSOR_RULES}/ folder: Cursor never reads it there`,
            }
          : {
              severity: "info",
              kind: "misplaced",
              agent: "cursor",
              file: path,
              message: `an .mdc file outside any ${CURSOR_RULES}/ folder, in a folder no agent's name is in (a template?): no agent reads it there`,
            },
      );
    }
  }
  return findings;
}
