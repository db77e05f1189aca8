/**
 * GitHub Copilot CLI's own loading, observed with the real CLI 1.0.102 against a recording API
 * (test/hosts/copilot.test.ts, fixtures/native-instructions):
 * - at start: AGENTS.md, CLAUDE.md and GEMINI.md from the working folder up to the git root, and
 *   `.github/copilot-instructions.md`; the scoped `.github/instructions/*.instructions.md` only as a table of
 *   paths and `applyTo` patterns, which it adds itself once it works on a matching file;
 * - after its read tool reads a file: the AGENTS.md, CLAUDE.md and GEMINI.md of that file's folders, and the
 *   scoped instructions whose `applyTo` matches it; so, at prompt time, the nested ones above a file the prompt
 *   names (the model reads it next; docs/hosts/copilot-cli.md);
 * - skills: `.github/skills`, `.claude/skills` and `.agents/skills`, each skill's name and description.
 * Its own profile, apart from `copilot` (the IDE and coding agent, from the documentation): the CLI is where
 * Copilot runs hooks, and it differs from those docs in what it loads on a read (nested CLAUDE.md and GEMINI.md)
 * and in loading a nested AGENTS.md only for files it works on.
 */
import { nativeMemory, type NativeMemory } from "./native-memory.js";
import { nativeSkill, type NativeSkills } from "./native-skills.js";
import { matchedByGlobs, type AgentProfile } from "./profile.js";

const SKILLS: NativeSkills = { label: "Copilot CLI", folders: [".github/skills", ".claude/skills", ".agents/skills"], scope: "chain" };
const MEMORY: NativeMemory = { label: "Copilot CLI", names: ["AGENTS.md", "CLAUDE.md", "GEMINI.md"], onRead: true };
const SCOPED = /^\.github\/instructions\/.*\.instructions\.md$/;

export const copilotCli: AgentProfile = {
  name: "copilot-cli",
  agent: "copilot",
  version: "1.0.102",
  basis: "observed with the real CLI against a recording API (test/hosts/copilot.test.ts)",
  loadsItself(candidate, context) {
    const path = candidate.path;
    if (path === null) return null;
    if (candidate.source === "skills") return nativeSkill(SKILLS, candidate, context);
    if (path === ".github/copilot-instructions.md") return "Copilot CLI reads .github/copilot-instructions.md itself, always";
    if (SCOPED.test(path)) {
      if (candidate.kind === "always") return "Copilot CLI applies it itself (applyTo matches every file)";
      return !matchedByGlobs(candidate) ? null : "Copilot CLI applies it itself once it works on a file its applyTo matches";
    }
    return nativeMemory(MEMORY, candidate, context);
  },
};
