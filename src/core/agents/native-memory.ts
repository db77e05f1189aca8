/**
 * Agents' own memory files (AGENTS.md and its kin): most agents load those of the working folder and every folder
 * above it at start, and some also add the ones above a file their read tool reads. Which names, and whether reads
 * count, differs per agent (see each profile).
 */
import { baseName, dirOf, isWithin } from "../rel-path.js";
import type { Candidate } from "../types.js";
import type { LoadedContext } from "./profile.js";

export interface NativeMemory {
  /** How the agent is named in reasons. */
  label: string;
  /** The file names it loads (`AGENTS.md`, `CLAUDE.md`…). */
  names: readonly string[];
  /** Also the files above a file its read tool reads (nested discovery). */
  onRead: boolean;
}

/** Why the agent already has this memory file itself, or null. */
export function nativeMemory(spec: NativeMemory, candidate: Candidate, context: LoadedContext): string | null {
  const path = candidate.path;
  if (path === null || candidate.source !== "directory-agents") return null;
  const name = baseName(path);
  if (!spec.names.includes(name)) return null;
  const folder = dirOf(path);
  if (isWithin(context.workingFolder, folder)) return `${spec.label} loads ${name} from the working folder up itself`;
  if (spec.onRead && context.reads.some((file) => isWithin(dirOf(file), folder))) return `${spec.label} adds the ${name} above a file it reads itself`;
  return null;
}
