/** What an agent's tools say about the files they touched, read from their arguments and results (no I/O). */

/** The patch text of an apply_patch call (Codex) or ApplyPatch call (Droid), whichever argument carries it. */
export function patchOf(input: Record<string, unknown> | undefined): string | undefined {
  return Object.values(input ?? {}).find((v): v is string => typeof v === "string" && v.includes("*** Begin Patch"));
}

/**
 * The files an apply_patch envelope adds, updates or moves to (opencode's and Codex's patch format). Deleted
 * files have no rules worth sending.
 */
export function patchTargets(patch: string): string[] {
  const files: string[] = [];
  for (const line of patch.split("\n")) {
    const match = /^\*\*\* (?:Add File|Update File|Move to): (.+?)\s*$/.exec(line);
    if (match && !files.includes(match[1]!)) files.push(match[1]!);
  }
  return files;
}

/**
 * The files a search tool's result lists: lines that are a path under `directory` (glob prints one per line,
 * grep prints `path:` above its matches). Order of first appearance, each once.
 */
export function listedFiles(output: string, directory: string): string[] {
  const prefix = directory.endsWith("/") ? directory : `${directory}/`;
  const files: string[] = [];
  for (const raw of output.split("\n")) {
    const line = raw.trim().replace(/:$/, "");
    if (line.startsWith(prefix) && !/\s/.test(line.slice(prefix.length)) && !files.includes(line)) files.push(line);
  }
  return files;
}
