/**
 * Gemini CLI's own loading (0.61.0; its docs/cli/gemini-md.md, and the requests the real CLI sends to a recording
 * API in test/hosts/gemini.test.ts):
 * - GEMINI.md (`context.fileName` may name others; this profile keeps the default) in the working folder and each
 *   folder above it up to the project top, at start, with `@imports` expanded;
 * - just in time: when a tool reads or writes a file, the GEMINI.md files of that file's folder and the folders
 *   above it;
 * - no AGENTS.md (unless named in `context.fileName`), no rules folders.
 */
import { baseName, dirOf, isWithin } from "../rel-path.js";
import type { AgentProfile } from "./profile.js";

export const geminiCli: AgentProfile = {
  name: "gemini-cli",
  version: "0.61.0",
  basis: "Gemini CLI docs/cli/gemini-md.md at 0.61.0; observed with the real CLI against a recording API (test/hosts/gemini.test.ts)",
  loadsItself(candidate, context) {
    const path = candidate.path;
    if (path === null || candidate.source !== "directory-agents" || baseName(path) !== "GEMINI.md") return null;
    const folder = dirOf(path);
    if (isWithin(context.workingFolder, folder)) return "Gemini CLI loads GEMINI.md from the working folder up itself";
    if (context.reads.some((file) => isWithin(dirOf(file), folder))) return "Gemini CLI loads the GEMINI.md files above a file its tools touch (just-in-time context)";
    return null;
  },
};
