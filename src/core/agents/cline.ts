/**
 * Cline CLI's own loading, observed with the real CLI 3.0.65 against a recording API (test/hosts/cline.test.ts,
 * fixtures/native-instructions):
 * - at start: the workspace root's AGENTS.md and its `.clinerules/` rules (not CLAUDE.md);
 * - nothing more after its read tool reads a file (no nested AGENTS.md);
 * - no skills of `.claude/skills`, `.agents/skills` or `.cline/skills` reach the model unasked.
 * Only the rules that always apply are claimed: a rule with `paths` was not observed, so ctxinject sends it
 * (at worst twice) rather than risk it missing; nor was the single-file `.clinerules`.
 */
import type { AgentProfile } from "./profile.js";

const RULE = /^\.clinerules\/[^/]+\.(?:md|txt)$/;

export const cline: AgentProfile = {
  name: "cline",
  version: "3.0.65",
  basis: "observed with the real CLI against a recording API (test/hosts/cline.test.ts)",
  loadsItself(candidate) {
    const path = candidate.path;
    if (path === null) return null;
    if (path === "AGENTS.md" && candidate.source === "directory-agents") return "Cline reads the workspace's AGENTS.md itself, at start";
    if (RULE.test(path) && candidate.kind === "always") return "Cline applies the workspace's .clinerules rules itself, at start";
    return null;
  },
};
