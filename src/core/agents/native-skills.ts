/**
 * Agents' own skills: most agents list the skills of their skills folders to the model by themselves (each skill's
 * name and description at start; the body only when the model uses the skill), so a hook that sends them again
 * sends them twice. Which folders, and from which folders of the tree, differs per agent (see each profile).
 */
import { isWithin } from "../rel-path.js";
import type { Candidate } from "../types.js";
import type { LoadedContext } from "./profile.js";

/** Where an agent looks for skills folders: the working folder and each above it, the working folder, or the root. */
type SkillScope = "chain" | "working-folder" | "root";

export interface NativeSkills {
  /** How the agent is named in reasons. */
  label: string;
  /** The skills folders it reads (`.claude/skills`…). */
  folders: readonly string[];
  scope: SkillScope;
  /** Also the skills folders below the working folder once a file under them is read (Claude Code's nested skills). */
  onRead?: boolean;
}

const SKILL = /^(?:(.*)\/)?([^/]+\/skills)\/[^/]+\/SKILL\.md$/;

/** Why the agent already lists this skill itself, or null. */
export function nativeSkill(spec: NativeSkills, candidate: Candidate, context: LoadedContext): string | null {
  if (candidate.source !== "skills" || candidate.path === null) return null;
  const m = SKILL.exec(candidate.path);
  if (m === null) return null;
  const [, folder = "", skills] = m;
  if (!spec.folders.includes(skills!)) return null;
  const said = `${spec.label} lists the skills of ${skills} itself (name and description; it reads the body when it uses one)`;
  const reached =
    spec.scope === "root" ? folder === "" : spec.scope === "working-folder" ? folder === context.workingFolder : isWithin(context.workingFolder, folder);
  if (reached) return said;
  if (spec.onRead && isWithin(folder, context.workingFolder) && context.reads.some((file) => isWithin(file, folder)))
    return `${said}, for the files below ${folder}/ it works on`;
  return null;
}
