/**
 * Which agents read a file by themselves: the tag a finding carries. An agent is named only when it loads the file
 * on its own — its profile says so (core/agents, the one model the hooks and `explain --as` use), the file is in the
 * agent's own rules folder or file (an agent without a profile: Cline, Roo Code, Continue…), or an agent that
 * reads the importing file expands the import. A file no agent loads by itself (a README, a folder named in
 * `rules.dirs`, CONVENTIONS.md that aider reads only with --read) reaches a model only through ctxinject: its tag
 * is `ctxinject`, never `all`.
 */
import { loadsThroughAnyPath, matchedByGlobs, type AgentProfile, type LoadedContext } from "../agents/profile.js";
import type { ImportNode } from "../parse/imports.js";
import { dirOf, joinPath } from "../rel-path.js";
import { utf8Bytes } from "../tokens.js";
import type { Candidate } from "../types.js";

/** The tag of a file only ctxinject brings to a model. */
const CTXINJECT_ONLY = "ctxinject";

/**
 * The agent whose own folder or file a source module reads (module name → agent). A profiled agent's folder is
 * its own even where the profile asks for more (a manual Cursor rule is read when the user names it).
 */
const OWNER_OF: Readonly<Record<string, string>> = {
  cursor: "cursor",
  cursorrules: "cursor",
  "claude-rules": "claude-code",
  "copilot-instructions": "copilot",
  copilot: "copilot",
  windsurf: "windsurf",
  windsurfrules: "windsurf",
  kiro: "kiro",
  cline: "cline",
  clinerules: "cline",
  roo: "roo-code",
  continue: "continue",
  augment: "augment",
  "augment-guidelines": "augment",
  kord: "kord",
  junie: "junie",
  zed: "zed",
  "crush-md": "crush",
  "warp-md": "warp",
  goosehints: "goose",
};

/**
 * `(path) => agents`, sorted; empty when no agent reads the file by itself. Each profile is asked in the situation
 * most favourable to the file: working in its folder or at the root, having just read a file in its folder, with a
 * rule's globs matching.
 */
export function fileReaders(
  candidates: readonly Candidate[],
  profiles: readonly AgentProfile[],
  moduleOf: (path: string) => string | undefined,
): (path: string) => string[] {
  const byPath = new Map<string, Candidate>();
  for (const c of candidates) if (c.path !== null) byPath.set(c.path, c);
  const present = new Set(byPath.keys());
  const bytesOf = (path: string) => utf8Bytes(byPath.get(path)?.content ?? "");
  const importers = new Map<string, Candidate[]>();
  const note = (importer: Candidate, nodes: readonly ImportNode[]) => {
    for (const node of nodes) {
      const list = importers.get(node.path);
      if (list === undefined) importers.set(node.path, [importer]);
      else if (!list.includes(importer)) list.push(importer);
      note(importer, node.imports);
    }
  };
  for (const c of candidates) if (c.imports !== undefined) note(c, c.imports);

  const direct = (path: string): string[] => {
    const found = new Set<string>();
    const owner = OWNER_OF[moduleOf(path) ?? ""];
    if (owner !== undefined) found.add(owner);
    const candidate = byPath.get(path);
    if (candidate !== undefined) {
      // "unmatched" says no target matched its globs in this run; the question here is whether it is ever read.
      const asked = matchedByGlobs(candidate) ? candidate : { ...candidate, status: "included" as const, byDescription: false };
      const folder = dirOf(path);
      const contexts: LoadedContext[] = [
        { present, workingFolder: folder, reads: [joinPath(folder, "*")], bytesOf },
        { present, workingFolder: "", reads: [joinPath(folder, "*")], bytesOf },
      ];
      for (const p of profiles) if (contexts.some((context) => loadsThroughAnyPath(p.loadsItself, asked, context) !== null)) found.add(p.agent ?? p.name);
    }
    return [...found];
  };
  const expanders = new Set(profiles.filter((p) => p.expandsImports === true).map((p) => p.agent ?? p.name));
  const memo = new Map<string, string[]>();
  return (path) => {
    let agents = memo.get(path);
    if (agents === undefined) {
      const found = new Set(direct(path));
      // An imported file is read by the agents that read an importing file and expand its imports.
      for (const importer of importers.get(path) ?? []) for (const agent of direct(importer.path!)) if (expanders.has(agent)) found.add(agent);
      agents = [...found].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      memo.set(path, agents);
    }
    return agents;
  };
}

/** A finding's tag for a file: the agents that read it, or `ctxinject` when none does by itself. */
export function tagOf(agents: readonly string[]): string {
  return agents.length === 0 ? CTXINJECT_ONLY : agents.join(", ");
}
