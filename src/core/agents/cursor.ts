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
import { rulesFolderAgent } from "./rules-folder-agent.js";

export const cursor = rulesFolderAgent({
  name: "cursor",
  version: "2.x (documentation)",
  basis: "docs.cursor.com rules and AGENTS.md documentation; Cursor has no CLI to observe here",
  label: "Cursor",
  legacy: ".cursorrules",
  folder: /(^|\/)\.cursor\/rules\//,
  always: "alwaysApply",
  auto: "a file in the conversation matches its globs",
  requested: "a description alone",
});
