/**
 * GitHub Copilot's own loading (docs.github.com "Adding repository custom instructions", VS Code and the coding
 * agent, 2025–2026; written from the documentation):
 * - `.github/copilot-instructions.md`, always;
 * - `.github/instructions/**\/*.instructions.md` whose `applyTo` matches a file being worked on (`excludeAgent`
 *   leaves out the code-review or coding agent: read here as "some Copilot agents skip it");
 * - AGENTS.md (the nearest one above a file wins for the coding agent; VS Code reads the root's), and a root
 *   CLAUDE.md or GEMINI.md in their place;
 * - skills ("About agent skills"): `.github/skills`, `.claude/skills` and `.agents/skills` of the repository, each
 *   skill's name and description (the body when the agent uses it).
 */
import { ancestorsOf, baseName, dirOf, joinPath } from "../rel-path.js";
import { nativeSkill, type NativeSkills } from "./native-skills.js";
import { matchedByGlobs, type AgentProfile, type LoadedContext } from "./profile.js";

const SKILLS: NativeSkills = { label: "Copilot", folders: [".github/skills", ".claude/skills", ".agents/skills"], scope: "root" };

export const copilot: AgentProfile = {
  name: "copilot",
  version: "2026 documentation",
  basis: "docs.github.com repository custom instructions and agent skills; VS Code custom instructions documentation",
  loadsItself(candidate, context) {
    const path = candidate.path;
    if (path === null) return null;
    if (candidate.source === "skills") return nativeSkill(SKILLS, candidate, context);
    if (path === ".github/copilot-instructions.md") return "Copilot reads .github/copilot-instructions.md itself, always";
    if (/^\.github\/instructions\/.*\.instructions\.md$/.test(path)) {
      if (copilot.skips!(candidate) !== null) return null;
      if (candidate.kind === "always") return "Copilot applies it itself (applyTo matches every file)";
      return !matchedByGlobs(candidate) ? null : "Copilot applies it itself: its applyTo matches a file being worked on";
    }
    if (candidate.source === "directory-agents" && baseName(path) === "AGENTS.md") {
      const nearest = nearestAgentsFiles(context);
      if (nearest.includes(path)) return "Copilot reads AGENTS.md itself (the nearest above a file)";
      if (dirOf(path) === "")
        return `VS Code's Copilot reads the root AGENTS.md itself (its coding agent reads the nearest above a file instead: ${nearest.join(", ")})`;
      return null;
    }
    if (candidate.source === "directory-agents" && dirOf(path) === "" && (path === "CLAUDE.md" || path === "GEMINI.md"))
      return `Copilot's coding agent reads a root ${path} itself`;
    return null;
  },
  // `--as copilot` is Copilot's coding agent and chat: a file that excludes the coding agent is not theirs.
  skips(candidate) {
    return candidate.excludeAgent?.includes("coding-agent") ? "excludeAgent: coding-agent — Copilot's coding agent leaves it out (code review reads it)" : null;
  },
};

/** The AGENTS.md nearest above each file worked on (the working folder's, with none): the one the coding agent reads. */
function nearestAgentsFiles(context: LoadedContext): string[] {
  const folders = context.reads.length > 0 ? context.reads.map(dirOf) : [context.workingFolder];
  const nearest = new Set<string>();
  for (const folder of folders) {
    const found = ancestorsOf(folder)
      .reverse()
      .map((f) => joinPath(f, "AGENTS.md"))
      .find((p) => context.present.has(p));
    if (found !== undefined) nearest.add(found);
  }
  return [...nearest];
}
