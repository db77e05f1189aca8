/**
 * Qwen Code's own loading, observed with the real CLI 0.24.4 against a recording API (test/hosts/qwen.test.ts,
 * fixtures/native-instructions):
 * - at start: QWEN.md and AGENTS.md from the working folder up (not CLAUDE.md, not GEMINI.md);
 * - nothing more after its read tool reads a file (no nested discovery, unlike Gemini CLI it forks);
 * - skills: `.qwen/skills` and `.agents/skills`, each skill's name and description (not `.claude/skills`).
 * ctxinject reads QWEN.md only when `agents.files` names it; the profile answers for it either way.
 */
import { nativeMemory, type NativeMemory } from "./native-memory.js";
import { nativeSkill, type NativeSkills } from "./native-skills.js";
import type { AgentProfile } from "./profile.js";

const SKILLS: NativeSkills = { label: "Qwen Code", folders: [".qwen/skills", ".agents/skills"], scope: "chain" };
const MEMORY: NativeMemory = { label: "Qwen Code", names: ["QWEN.md", "AGENTS.md"], onRead: false };

export const qwenCode: AgentProfile = {
  name: "qwen-code",
  version: "0.24.4",
  basis: "observed with the real CLI against a recording API (test/hosts/qwen.test.ts)",
  loadsItself(candidate, context) {
    const path = candidate.path;
    if (path === null) return null;
    if (candidate.source === "skills") return nativeSkill(SKILLS, candidate, context);
    return nativeMemory(MEMORY, candidate, context);
  },
};
