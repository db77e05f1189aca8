/**
 * opencode's own loading, read from the 1.18.33 binary's instruction service and confirmed with the real CLI
 * against a recording API (test/hosts/opencode.test.ts):
 * - at start, one name of AGENTS.md, CLAUDE.md, CONTEXT.md — the first that exists anywhere from the working
 *   folder up to the project top — and then every file of that name on that path;
 * - at start, what config `instructions` names (opencode.json, project and global): a relative path or glob is
 *   looked for in the working folder and each folder above it up to the project top;
 * - on its `read` tool, for each folder below the working folder on the read file's path, the first of
 *   AGENTS.md, CLAUDE.md, CONTEXT.md there, appended to the read result (its edit and write tools add nothing); so,
 *   at the prompt, those above a file the prompt names (the model reads it next; docs/hosts/opencode.md);
 * - skills: `.claude/skills`, `.agents/skills` and `.opencode/skill(s)` in the working folder and each folder above
 *   it, each skill's name and description in its skill tool (the body when the model calls it);
 * - no `@imports`, no rules folders.
 * OPENCODE_DISABLE_CLAUDE_CODE_PROMPT drops CLAUDE.md from both lists; this profile keeps the default.
 */
import picomatch from "picomatch";
import { globShape, isSimpleGlob } from "../parse/glob-limits.js";
import { ancestorsOf, baseName, dirOf, isWithin, joinPath } from "../rel-path.js";
import { readBelow } from "./native-memory.js";
import { nativeSkill, type NativeSkills } from "./native-skills.js";
import type { AgentProfile, AgentSettings, LoadedContext } from "./profile.js";

const SKILLS: NativeSkills = { label: "opencode", folders: [".claude/skills", ".agents/skills", ".opencode/skills", ".opencode/skill"], scope: "chain" };

const NAMES = ["AGENTS.md", "CLAUDE.md", "CONTEXT.md"];

/** The name opencode loads at start: the first of NAMES found on the path from the working folder to the top. */
function startName(context: LoadedContext): string | undefined {
  const chain = ancestorsOf(context.workingFolder);
  return NAMES.find((name) => chain.some((folder) => context.present.has(joinPath(folder, name))));
}

/** opencode as these settings have it (its defaults without them). */
export function opencodeProfile(settings: AgentSettings = {}): AgentProfile {
  // Absolute and home paths point outside the project, where no candidate lives. The list is the repository's
  // opencode.json: a glob too rich for a backtracking regexp (core/parse/glob-limits.ts) is left out, and what it
  // names is then injected as if opencode did not load it.
  const instructions = (settings.instructions ?? [])
    .filter((i) => !i.startsWith("/") && !i.startsWith("~") && isSimpleGlob(globShape(i)))
    .map((i) => ({ text: i, test: picomatch(i.replace(/^\.\//, ""), { dot: true }) }));
  const via = settings.from ? ` (instructions in ${settings.from})` : "";
  return {
    name: "opencode",
    version: "1.18.33",
    basis: "the instruction service of the opencode 1.18.33 binary; observed with the real CLI against a recording API (test/hosts/opencode.test.ts)",
    loadsItself(candidate, context) {
      const path = candidate.path;
      if (path === null) return null;
      if (candidate.source === "skills") return nativeSkill(SKILLS, candidate, context);
      for (const folder of instructions.length > 0 ? ancestorsOf(context.workingFolder) : []) {
        if (!isWithin(path, folder)) continue;
        const hit = instructions.find((i) => i.test(folder === "" ? path : path.slice(folder.length + 1)));
        if (hit) return `opencode loads ${hit.text} at start${via}`;
      }
      if (candidate.source !== "directory-agents") return null;
      const name = baseName(path);
      if (!NAMES.includes(name)) return null;
      const folder = dirOf(path);
      if (isWithin(context.workingFolder, folder)) return name === startName(context) ? `opencode loads ${name} from the working folder up itself` : null;
      const first = NAMES.find((n) => context.present.has(joinPath(folder, n)));
      if (first !== name || !isWithin(folder, context.workingFolder)) return null;
      const read = readBelow(context, folder);
      return read === null ? null : `opencode adds ${name} to the result of its read tool${read}`;
    },
  };
}

export const opencode: AgentProfile = opencodeProfile();
