/**
 * Cursor's own loading (docs.cursor.com "Rules", Cursor 1.7–2.x; written from the documentation, not observed:
 * Cursor has no CLI to run against a recording API here):
 * - `.cursor/rules/**\/*.mdc` at the root and in nested folders (a nested folder's rules apply to files below it):
 *   `alwaysApply: true` always; `globs` when a file in the conversation matches; a `description` alone is offered
 *   to the agent, which fetches the rule when it judges it relevant; no fields: only when mentioned as @rule;
 * - the legacy `.cursorrules` at the root, always;
 * - AGENTS.md at the root and in subfolders (for files below them).
 * Not read: .claude/rules, .github instructions, CLAUDE.md, other agents' folders.
 */
import { baseName } from "../rel-path.js";
import type { AgentProfile } from "./profile.js";

export const cursor: AgentProfile = {
  name: "cursor",
  version: "2.x (documentation)",
  basis: "docs.cursor.com rules and AGENTS.md documentation; Cursor has no CLI to observe here",
  loadsItself(candidate) {
    const path = candidate.path;
    if (path === null) return null;
    if (path === ".cursorrules") return "Cursor reads the legacy .cursorrules itself, always";
    if (candidate.source === "directory-agents" && baseName(path) === "AGENTS.md") return "Cursor reads AGENTS.md itself (the root's always, a subfolder's for files below it)";
    if (!/(^|\/)\.cursor\/rules\//.test(path)) return null;
    if (candidate.kind === "always") return "Cursor applies it itself: alwaysApply";
    if (candidate.kind === "auto") return candidate.status === "unmatched" ? null : "Cursor attaches it itself when a file in the conversation matches its globs";
    if (candidate.kind === "agent-requested") return "Cursor offers its description to the agent, which fetches it when relevant";
    return null;
  },
};
