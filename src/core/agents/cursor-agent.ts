/**
 * Cursor's CLI (`cursor-agent`, not on npm; written from docs.cursor.com "CLI: using" and "Hooks", not observed:
 * nothing here can run it against a recording API). It reads the rules the editor reads (`cursor`'s profile) and
 * also CLAUDE.md at the project root, applied as a rule alongside `.cursor/rules` (the docs name AGENTS.md and
 * CLAUDE.md there).
 * Its hooks (`.cursor/hooks.json`, `{"version":1,"hooks":{…}}`): `sessionStart` answers `additional_context`, kept
 * for the conversation; `beforeSubmitPrompt`'s `additional_context` is accepted by recent clients but undocumented;
 * the hook adapter (the host registry) builds on these, not this profile.
 */
import { cursor } from "./cursor.js";
import type { AgentProfile } from "./profile.js";

export const cursorAgent: AgentProfile = {
  name: "cursor-agent",
  agent: "cursor",
  version: "2026 documentation",
  basis: "docs.cursor.com CLI (rules: .cursor/rules, AGENTS.md and CLAUDE.md at the root) and hooks documentation; not observed",
  loadsItself(candidate, context) {
    if (candidate.path === "CLAUDE.md" && candidate.source === "directory-agents") return "Cursor's CLI applies the project root's CLAUDE.md itself, as a rule";
    return cursor.loadsItself(candidate, context);
  },
};
