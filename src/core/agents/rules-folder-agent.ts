import { baseName } from "../rel-path.js";
import { matchedByGlobs, type AgentProfile } from "./profile.js";

/**
 * An agent whose own loader reads a rules folder by each rule's kind (always, auto on a matching file, description
 * offered to the model, manual only when mentioned), a legacy single file at the root, and AGENTS.md: Cursor and
 * Windsurf share that shape and differ in names and words.
 */
export function rulesFolderAgent(spec: {
  name: string;
  version: string;
  basis: string;
  label: string;
  legacy: string;
  folder: RegExp;
  /** How the agent's docs name each kind, for the reasons. */
  always: string;
  auto: string;
  requested: string;
}): AgentProfile {
  return {
    name: spec.name,
    version: spec.version,
    basis: spec.basis,
    loadsItself(candidate) {
      const path = candidate.path;
      if (path === null) return null;
      if (path === spec.legacy) return `${spec.label} reads the legacy ${spec.legacy} itself, always`;
      if (candidate.source === "directory-agents" && baseName(path) === "AGENTS.md")
        return `${spec.label} reads AGENTS.md itself (the root's always, a subfolder's for files below it)`;
      if (!spec.folder.test(path)) return null;
      if (candidate.kind === "always") return `${spec.label} applies it itself: ${spec.always}`;
      if (candidate.kind === "auto") return !matchedByGlobs(candidate) ? null : `${spec.label} applies it itself: ${spec.auto}`;
      if (candidate.kind === "agent-requested") return `${spec.label} offers its description to the model, which fetches it when relevant (${spec.requested})`;
      return null;
    },
  };
}
