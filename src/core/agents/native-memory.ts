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
  /**
   * Also the files above a file its read tool reads (nested discovery), in that read's result; and so, at prompt time,
   * those above a file the prompt names, which the agent is about to read.
   */
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
  if (!spec.onRead) return null;
  if (context.reads.some((file) => isWithin(dirOf(file), folder))) return `${spec.label} adds the ${name} above a file it reads itself`;
  // Sent with the prompt too, it would arrive twice once the agent reads the file the prompt names. Only a named
  // file: what a folder's listing brings was not observed (sent, at worst twice, rather than missed); an edit
  // without a read gets it from the tool-time hook.
  const named = context.mentioned?.find((file) => isWithin(dirOf(file), folder));
  if (named !== undefined) return `${spec.label} adds the ${name} above a file it reads itself, and the prompt names ${named}, below it`;
  return null;
}
