/**
 * Codex's own loading (0.169.0; developers.openai.com/codex/guides/agents-md, and the requests the real CLI sends
 * to a recording API in test/hosts/codex.test.ts):
 * - in each folder from the project top (the git root) down to the working folder, the first of
 *   AGENTS.override.md and AGENTS.md (config `project_doc_fallback_filenames` adds names; this profile keeps the
 *   default), all in one budget of 32 KiB (`project_doc_max_bytes`) filled root first: the file nearest the code is
 *   the one cut, in raw bytes;
 * - nothing below the working folder, nothing for the files it touches later, no `@imports`, no rules folders.
 * So a file that is cut, or that carries imports Codex leaves as they are, is injected whole by ctxinject.
 */
import { ancestorsOf, baseName, dirOf, isWithin, joinPath } from "../rel-path.js";
import type { AgentProfile, LoadedContext } from "./profile.js";

const NAMES = ["AGENTS.override.md", "AGENTS.md"];
export const CODEX_BUDGET_BYTES = 32 * 1024;

/** The chain Codex reads for the working folder, root first: one file per folder. */
export function codexChain(context: Pick<LoadedContext, "present" | "workingFolder">): string[] {
  const chain: string[] = [];
  for (const folder of ancestorsOf(context.workingFolder)) {
    const name = NAMES.find((n) => context.present.has(joinPath(folder, n)));
    if (name) chain.push(joinPath(folder, name));
  }
  return chain;
}

export const codex: AgentProfile = {
  name: "codex",
  version: "0.169.0",
  basis: "developers.openai.com/codex/guides/agents-md; observed with the real CLI against a recording API (test/hosts/codex.test.ts)",
  loadsItself(candidate, context) {
    const path = candidate.path;
    if (path === null || candidate.source !== "directory-agents" || !NAMES.includes(baseName(path))) return null;
    if (!isWithin(context.workingFolder, dirOf(path)) || (candidate.imports?.length ?? 0) > 0) return null;
    let used = 0;
    for (const file of codexChain(context)) {
      used += context.bytesOf(file);
      if (file === path) return used <= CODEX_BUDGET_BYTES ? "Codex loads the AGENTS.md chain from the project top to its working folder itself" : null;
    }
    return null;
  },
};
