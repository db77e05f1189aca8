import type { DoctorInput } from "../../core/doctor/index.js";
import type { Warning } from "../../core/types.js";
import { walkTree } from "../discover.js";
import { AGENT_NAMES, profileFor } from "../../hosts/index.js";
import { readAgentSettings } from "../agent-settings.js";
import { runPipeline, type RunEnvironment } from "../pipeline.js";
import { trackedFiles } from "../git/git.js";
import { indexedFiles, indexPathsClean } from "../git/git-index.js";
import { entryAt, findUp, hasGit, toRootRelative, under } from "../fs/paths.js";
import type { SettingOrigin } from "../../core/config-layers.js";

/**
 * What `doctor` looks at: what `build --all` reads (every instruction file git tracks, or the tree's outside git,
 * the files they import, and its selection) and every file the globs may be meant for. The warnings are those of
 * the reading; the selection's own become findings.
 */
export async function readDoctorTree(run: RunEnvironment, rootFlag: string | undefined): Promise<DoctorInput & { root: string; warnings: Warning[] }> {
  const gathered = await runPipeline(run, { purpose: "doctor", all: true, ...(rootFlag !== undefined && { root: rootFlag }) });
  const root = gathered.root;
  // Every file git tracks, read from its index as --all reads it (a `git ls-files` process listing 100k paths was
  // ~0.1 s of a large tree's run); git's own answer where only git should read it; outside git the tree is walked.
  const gitTop = findUp(root, hasGit);
  const fromIndex = gitTop === null ? null : indexedFiles(gitTop, root, { names: [], folders: [], every: true }, run.env);
  const listed = fromIndex ?? trackedFiles(root, [], run.env);
  const indexWarnings: Warning[] = [];
  const tracked = listed !== null ? indexPathsClean(listed, indexWarnings) : await walkTree(root, () => true);
  // Each agent as its settings here have it (Gemini CLI told to read AGENTS.md reads it): who gets a text twice;
  // Codex's budget and names for where it cuts.
  const settings = AGENT_NAMES.map((name) => ({ name, ...readAgentSettings(name, root, run) }));
  return {
    codex: settings.find((s) => s.name === "codex")!.settings,
    profiles: settings.flatMap((s) => profileFor(s.name, s.settings) ?? []),
    root,
    files: gathered.files,
    selection: gathered.selection,
    tracked: tracked.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    config: gathered.config,
    memo: gathered.memo,
    keywordFiles: keywordFiles(gathered.settings, root),
    // A path under a file, or through a link loop, is neither (the reading warned of a loop where it mattered).
    exists: (path) => entryAt(under(root, path))?.isFile() === true,
    isFolder: (path) => entryAt(under(root, path))?.isDirectory() === true,
    // The index read twice (the pipeline's instruction files, then every file here) warns once: the pipeline's.
    warnings: onceEach([
      ...gathered.warnings.filter((w) => !gathered.selection.warnings.includes(w)),
      ...indexWarnings,
      ...settings.flatMap((s) => s.warnings),
    ]),
  };
}

/** Which config file set each keyword mode's `content`: root-relative for a repository's, as it is for the user's. */
function keywordFiles(settings: Record<string, SettingOrigin>, root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [key, origin] of Object.entries(settings)) {
    const mode = /^keywords\.(.+)\.content$/.exec(key)?.[1];
    if (mode !== undefined && origin.file !== undefined) files[mode] = toRootRelative(root, origin.file) ?? origin.file;
  }
  return files;
}

/** The first warning of each key (file, line, code); one without a code is a warning of its own. */
function onceEach(warnings: Warning[]): Warning[] {
  const seen = new Set<string>();
  return warnings.filter((w) => {
    if (!("code" in w)) return true;
    const key = `${w.file ?? ""}\0${w.line ?? ""}\0${String(w.code)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
