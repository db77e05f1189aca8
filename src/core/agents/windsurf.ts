/**
 * Windsurf's own loading (docs.windsurf.com "Memories & Rules", 2025–2026; written from the documentation):
 * - `.windsurf/rules/*.md` by `trigger`: always_on always; glob when a matching file is in play; model_decision
 *   offered by its description; manual only when mentioned;
 * - the legacy `.windsurfrules` at the root, always;
 * - AGENTS.md: the root's always, a subfolder's for files below it.
 */
import { baseName } from "../rel-path.js";
import type { AgentProfile } from "./profile.js";

export const windsurf: AgentProfile = {
  name: "windsurf",
  version: "2026 documentation",
  basis: "docs.windsurf.com memories and rules, AGENTS.md documentation",
  loadsItself(candidate) {
    const path = candidate.path;
    if (path === null) return null;
    if (path === ".windsurfrules") return "Windsurf reads the legacy .windsurfrules itself, always";
    if (candidate.source === "directory-agents" && baseName(path) === "AGENTS.md") return "Windsurf reads AGENTS.md itself (the root's always, a subfolder's for files below it)";
    if (!/(^|\/)\.windsurf\/rules\//.test(path)) return null;
    if (candidate.kind === "always") return "Windsurf applies it itself: trigger always_on";
    if (candidate.kind === "auto") return candidate.status === "unmatched" ? null : "Windsurf applies it itself: trigger glob, a file in play matches";
    if (candidate.kind === "agent-requested") return "Windsurf offers its description to the model (trigger model_decision)";
    return null;
  },
};
