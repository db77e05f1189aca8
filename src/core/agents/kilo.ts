/**
 * Kilo's own loading (the CLI, an opencode fork), observed with the real CLI 7.7.7 against a recording API
 * (test/hosts/kilo.test.ts, fixtures/native-instructions):
 * - at start: AGENTS.md from the working folder up, and `.kilocode/rules/*.md` at the root;
 *   not CLAUDE.md beside an AGENTS.md;
 * - on its read tool: the AGENTS.md of the folders below the working folder on the read file's path (not their
 *   CLAUDE.md), appended to the read's result; so, at the prompt, those above a file the prompt names (the model
 *   reads it next; docs/hosts/kilo.md);
 * - skills: `.kilo/skills`, `.kilocode/skills`, `.claude/skills` and `.agents/skills` (not `.opencode/skills`).
 * Whether it falls back to CLAUDE.md where there is no AGENTS.md (opencode does) was not observed: such a file is
 * sent, at worst twice, rather than missed.
 */
import { nativeMemory, type NativeMemory } from "./native-memory.js";
import { nativeSkill, type NativeSkills } from "./native-skills.js";
import type { AgentProfile } from "./profile.js";

/** The root's rules folder (the mode folders were not observed: their rules are sent, at worst twice). */
const RULE = /^\.kilocode\/rules\/[^/]+\.md$/;
const MEMORY: NativeMemory = { label: "Kilo", names: ["AGENTS.md"], onRead: true };
const SKILLS: NativeSkills = { label: "Kilo", folders: [".kilo/skills", ".kilocode/skills", ".claude/skills", ".agents/skills"], scope: "chain" };

export const kilo: AgentProfile = {
  name: "kilo",
  version: "7.7.7",
  basis: "observed with the real CLI against a recording API (test/hosts/kilo.test.ts)",
  loadsItself(candidate, context) {
    const path = candidate.path;
    if (path === null) return null;
    if (candidate.source === "skills") return nativeSkill(SKILLS, candidate, context);
    if (RULE.test(path) && candidate.kind === "always") return "Kilo applies the root's .kilocode/rules itself, at start";
    return nativeMemory(MEMORY, candidate, context);
  },
};
