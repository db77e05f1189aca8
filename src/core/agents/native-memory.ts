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
  const read = spec.onRead ? readBelow(context, folder) : null;
  return read === null ? null : `${spec.label} adds the ${name} above a file it reads itself${read}`;
}

/**
 * Whether the agent's read tool brings the memory files of `folder` (for an agent that adds them to a read's
 * result): it has just read a file below it (""), or the prompt names one, which the model reads next (the phrase
 * says so). Sent with the prompt as well, they would arrive twice once it does. Only a named file: what a folder's
 * listing brings was not observed (sent, at worst twice, rather than missed); an edit without a read gets them from
 * the tool-time hook.
 */
export function readBelow(context: LoadedContext, folder: string): string | null {
  if (context.reads.some((file) => isWithin(dirOf(file), folder))) return "";
  const named = context.mentioned?.find((file) => isWithin(dirOf(file), folder));
  return named === undefined ? null : `, and the prompt names ${named}, below it`;
}
