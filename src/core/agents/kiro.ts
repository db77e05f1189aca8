/**
 * Kiro's own loading (kiro.dev docs "Steering" and "Agent Skills", 2026; written from the documentation, not
 * observed: Kiro's IDE and CLI need a sign-in no recording API here can give):
 * - `.kiro/steering/*.md` by `inclusion`: `always` (also without the field) in every interaction; `fileMatch`
 *   when a file matching `fileMatchPattern` is in the context; `auto` when the request matches its description;
 *   `manual` only when the user names it (`#name` in chat); `#[[file:path]]` references in them expanded;
 * - the workspace's root AGENTS.md, always;
 * - skills in `.kiro/skills/<name>/SKILL.md`: names and descriptions at start, the body when a skill activates.
 */
import { nativeSkill, type NativeSkills } from "./native-skills.js";
import { matchedByGlobs, type AgentProfile } from "./profile.js";

const SKILLS: NativeSkills = { label: "Kiro", folders: [".kiro/skills"], scope: "root" };
const STEERING = /^\.kiro\/steering\/[^/]+\.md$/;

export const kiro: AgentProfile = {
  name: "kiro",
  version: "2026 documentation",
  basis: "kiro.dev steering and agent skills documentation (written from the documentation, not observed)",
  loadsItself(candidate, context) {
    const path = candidate.path;
    if (path === null) return null;
    if (candidate.source === "skills") return nativeSkill(SKILLS, candidate, context);
    if (path === "AGENTS.md" && candidate.source === "directory-agents") return "Kiro reads the workspace's AGENTS.md itself, always";
    if (!STEERING.test(path)) return null;
    if (candidate.kind === "always") return "Kiro includes it itself in every interaction (inclusion: always)";
    if (candidate.kind === "auto") return !matchedByGlobs(candidate) ? null : "Kiro includes it itself: a file in the context matches its fileMatchPattern";
    if (candidate.kind === "agent-requested") return "Kiro includes it itself when the request matches its description (inclusion: auto)";
    return null;
  },
};
