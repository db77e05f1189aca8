/**
 * Windsurf's own loading (docs.windsurf.com "Memories & Rules", 2025–2026; written from the documentation):
 * - `.windsurf/rules/*.md` by `trigger`: always_on always; glob when a matching file is in play; model_decision
 *   offered by its description; manual only when mentioned;
 * - the legacy `.windsurfrules` at the root, always;
 * - AGENTS.md: the root's always, a subfolder's for files below it.
 */
import { rulesFolderAgent } from "./rules-folder-agent.js";

export const windsurf = rulesFolderAgent({
  name: "windsurf",
  version: "2026 documentation",
  basis: "docs.windsurf.com memories and rules, AGENTS.md documentation",
  label: "Windsurf",
  legacy: ".windsurfrules",
  folder: /(^|\/)\.windsurf\/rules\//,
  always: "trigger always_on",
  auto: "trigger glob, a file in play matches",
  requested: "trigger model_decision",
});
