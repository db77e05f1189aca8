/**
 * Factory Droid's own loading, observed with the real CLI 0.215.0 (`droid exec`) against a recording API
 * (test/hosts/droid.test.ts, fixtures/native-instructions):
 * - at start: AGENTS.md and CLAUDE.md from the working folder up;
 * - after its Read tool reads a file: the AGENTS.md and CLAUDE.md of that file's folders;
 * - skills: `.factory/skills` and `.agents/skills`, each skill's name and description (not `.claude/skills`).
 */
import { baseName, dirOf, isWithin } from "../rel-path.js";
import { nativeSkill, type NativeSkills } from "./native-skills.js";
import type { AgentProfile } from "./profile.js";

const SKILLS: NativeSkills = { label: "Droid", folders: [".factory/skills", ".agents/skills"], scope: "chain" };
const NAMES = ["AGENTS.md", "CLAUDE.md"];

export const droid: AgentProfile = {
  name: "droid",
  version: "0.215.0",
  basis: "observed with the real CLI (droid exec) against a recording API (test/hosts/droid.test.ts)",
  loadsItself(candidate, context) {
    const path = candidate.path;
    if (path === null) return null;
    if (candidate.source === "skills") return nativeSkill(SKILLS, candidate, context);
    if (candidate.source !== "directory-agents" || !NAMES.includes(baseName(path))) return null;
    const folder = dirOf(path);
    if (isWithin(context.workingFolder, folder)) return `Droid loads ${baseName(path)} from the working folder up itself`;
    if (context.reads.some((file) => isWithin(dirOf(file), folder))) return `Droid adds the ${baseName(path)} above a file it reads itself`;
    return null;
  },
};
