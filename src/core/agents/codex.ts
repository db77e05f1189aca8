/**
 * Codex's own loading (0.169.0; developers.openai.com/codex/guides/agents-md, and the requests the real CLI sends
 * to a recording API in test/hosts/codex.test.ts):
 * - in each folder from the project top (the git root) down to the working folder, the first of
 *   AGENTS.override.md, AGENTS.md and the names of config `project_doc_fallback_filenames`, all in one budget of
 *   32 KiB (`project_doc_max_bytes`) filled root first: the file nearest the code is the one cut, in raw bytes;
 * - skills: `.agents/skills` (and `.codex/skills`) in the working folder and each folder above it up to the project
 *   top, each skill's name and description (its body when the model uses it);
 * - nothing below the working folder, nothing for the files it touches later, no `@imports`, no rules folders.
 * So a file that is cut, or that carries imports Codex leaves as they are, is injected whole by ctxinject.
 */
import { ancestorsOf, baseName, dirOf, isWithin, joinPath } from "../rel-path.js";
import { nativeSkill, type NativeSkills } from "./native-skills.js";
import type { AgentProfile, AgentSettings, LoadedContext } from "./profile.js";

const SKILLS: NativeSkills = { label: "Codex", folders: [".agents/skills", ".codex/skills"], scope: "chain" };

export const CODEX_BUDGET_BYTES = 32 * 1024;

/** The names Codex tries in each folder, in order. */
export const codexNames = (settings: AgentSettings = {}): string[] => ["AGENTS.override.md", "AGENTS.md", ...(settings.fallbackFileNames ?? [])];

/** The chain Codex reads for the working folder, root first: one file per folder. */
export function codexChain(context: Pick<LoadedContext, "present" | "workingFolder">, names: readonly string[] = codexNames()): string[] {
  const chain: string[] = [];
  for (const folder of ancestorsOf(context.workingFolder)) {
    const name = names.find((n) => context.present.has(joinPath(folder, n)));
    if (name) chain.push(joinPath(folder, name));
  }
  return chain;
}

/** Codex as these settings have it (its defaults without them). */
export function codexProfile(settings: AgentSettings = {}): AgentProfile {
  const names = codexNames(settings);
  const budget = settings.maxBytes ?? CODEX_BUDGET_BYTES;
  // The setting is named where it made the difference: a fallback name, or a budget of the user's.
  const via = (name: string) =>
    settings.from && (settings.fallbackFileNames?.includes(name) || settings.maxBytes !== undefined) ? ` (as ${settings.from} sets it)` : "";
  return {
    name: "codex",
    version: "0.169.0",
    basis: "developers.openai.com/codex/guides/agents-md; observed with the real CLI against a recording API (test/hosts/codex.test.ts)",
    loadsItself(candidate, context) {
      const path = candidate.path;
      if (candidate.source === "skills") return nativeSkill(SKILLS, candidate, context);
      if (path === null || !names.includes(baseName(path))) return null;
      if (!isWithin(context.workingFolder, dirOf(path)) || (candidate.imports?.length ?? 0) > 0) return null;
      let used = 0;
      for (const file of codexChain(context, names)) {
        used += context.bytesOf(file);
        if (file === path)
          return used <= budget ? `Codex loads the AGENTS.md chain from the project top to its working folder itself${via(baseName(path))}` : null;
      }
      return null;
    },
  };
}

export const codex: AgentProfile = codexProfile();
