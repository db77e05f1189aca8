/**
 * Factory Droid's own loading, observed with the real CLI 0.215.0 (`droid exec` and stream-jsonrpc) against a
 * recording API (test/hosts/droid.test.ts, fixtures/native-instructions):
 * - at start: AGENTS.md and CLAUDE.md from the working folder up;
 * - after its Read tool reads a file: the AGENTS.md and CLAUDE.md of that file's folders, appended to the read's
 *   result; so, at prompt time, those above a file the prompt names (the model reads it next; docs/hosts/droid.md);
 * - skills: `.factory/skills` and `.agents/skills`, each skill's name and description (not `.claude/skills`).
 */
import { nativeMemory, type NativeMemory } from "./native-memory.js";
import { nativeSkill, type NativeSkills } from "./native-skills.js";
import type { AgentProfile } from "./profile.js";

const SKILLS: NativeSkills = { label: "Droid", folders: [".factory/skills", ".agents/skills"], scope: "chain" };
const MEMORY: NativeMemory = { label: "Droid", names: ["AGENTS.md", "CLAUDE.md"], onRead: true };

export const droid: AgentProfile = {
  name: "droid",
  version: "0.215.0",
  basis: "observed with the real CLI (droid exec) against a recording API (test/hosts/droid.test.ts)",
  loadsItself(candidate, context) {
    const path = candidate.path;
    if (path === null) return null;
    if (candidate.source === "skills") return nativeSkill(SKILLS, candidate, context);
    return nativeMemory(MEMORY, candidate, context);
  },
};
