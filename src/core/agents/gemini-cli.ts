/**
 * Gemini CLI's own loading (0.61.0; its docs/cli/gemini-md.md, and the requests the real CLI sends to a recording
 * API in test/hosts/gemini.test.ts):
 * - GEMINI.md — or every name `context.fileName` gives (its settings.json, project over user) — in the working
 *   folder and each folder above it up to the project top, at start, with `@imports` expanded;
 * - just in time: when a tool reads or writes a file, the GEMINI.md files of that file's folder and the folders
 *   above it; so, at prompt time, the nested ones above a file the prompt names (the model reads it next, and they
 *   would arrive twice: native-memory.ts's readBelow, as for Copilot CLI, Kilo, opencode and Droid);
 * - skills: `.gemini/skills` and `.agents/skills` of the working folder only (not of the folders above it), each
 *   skill's name and description (its body when the model activates it);
 * - no AGENTS.md (unless named in `context.fileName`, as many projects do), no rules folders.
 */
import { baseName, dirOf, isWithin } from "../rel-path.js";
import { readBelow } from "./native-memory.js";
import { nativeSkill, type NativeSkills } from "./native-skills.js";
import type { AgentProfile, AgentSettings } from "./profile.js";

const SKILLS: NativeSkills = { label: "Gemini CLI", folders: [".gemini/skills", ".agents/skills"], scope: "working-folder" };

/** Gemini CLI as these settings have it (its defaults without them). */
export function geminiCliProfile(settings: AgentSettings = {}): AgentProfile {
  const names = settings.contextFileNames?.length ? settings.contextFileNames : ["GEMINI.md"];
  const via = settings.contextFileNames?.length && settings.from ? ` (context.fileName in ${settings.from})` : "";
  return {
    name: "gemini-cli",
    version: "0.61.0",
    basis: "Gemini CLI docs/cli/gemini-md.md at 0.61.0; observed with the real CLI against a recording API (test/hosts/gemini.test.ts)",
    expandsImports: true,
    loadsItself(candidate, context) {
      const path = candidate.path;
      if (candidate.source === "skills") return nativeSkill(SKILLS, candidate, context);
      if (path === null || candidate.source !== "directory-agents") return null;
      const name = baseName(path);
      if (!names.includes(name)) return null;
      const folder = dirOf(path);
      if (isWithin(context.workingFolder, folder)) return `Gemini CLI loads ${name} from the working folder up itself${via}`;
      const read = readBelow(context, folder);
      return read === null ? null : `Gemini CLI loads the ${name} files above a file its tools touch (just-in-time context)${via}${read}`;
    },
  };
}

export const geminiCli: AgentProfile = geminiCliProfile();
