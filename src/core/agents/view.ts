import { toEntry } from "../phases/dedup.js";
import type { Selection } from "../select.js";
import { utf8Bytes } from "../tokens.js";
import type { Candidate, Entry } from "../types.js";
import { loadsThroughAnyPath, type AgentProfile } from "./profile.js";

/** Whether one agent, left to its own loader, has a candidate — and why, or why not. */
export interface AgentView {
  agent: string;
  loads: boolean;
  reason: string;
  /** The agent's own settings leave this file of its kind out (Copilot's `excludeAgent`): `reason` says which. */
  skipped?: true;
}

/**
 * What an agent's own loader gives it of these candidates, for targets worked on from `workingFolder`: the profile
 * the hooks use to skip what their agent has, asked for every candidate (`explain --as`).
 */
export function agentView(profile: AgentProfile, candidates: Candidate[], targets: string[], workingFolder: string): AgentView[] {
  const byPath = new Map(candidates.filter((c) => c.path !== null).map((c) => [c.path!, c]));
  const present = new Set([...byPath.keys(), ...candidates.flatMap((c) => c.aliases ?? [])]);
  const context = { present, workingFolder, reads: targets, bytesOf: (path: string) => utf8Bytes(byPath.get(path)?.content ?? "") };
  return candidates.map((c) => {
    const reason = loadsThroughAnyPath(profile.loadsItself, c, context);
    if (reason !== null) return { agent: profile.name, loads: true, reason };
    const skip = profile.skips?.(c) ?? null;
    if (skip !== null) return { agent: profile.name, loads: false, reason: skip, skipped: true };
    const why = c.path === null ? `${profile.name} knows nothing of ctxinject's own entries (keyword modes, config and session entries)` : `${profile.name} does not load it by itself here`;
    return { agent: profile.name, loads: false, reason: why };
  });
}

/**
 * `build --as AGENT`: what that agent sees by itself — the candidates its own loader gives it, in ctxinject's order,
 * each as it is (two files with the same text are two, as the agent reads them; a file's `@imports` expanded only
 * for an agent that expands them); nothing of ctxinject's own.
 */
export function agentSelection(profile: AgentProfile, selection: Selection, workingFolder: string): Selection {
  const views = agentView(profile, selection.candidates, selection.targets, workingFolder);
  const seen = selection.candidates.filter((c, i) => views[i]!.loads && c.status !== "invalid");
  return { ...selection, entries: seen.map((c) => (profile.expandsImports === true || c.asWritten === undefined ? toEntry(c) : asWrittenEntry(c, c.asWritten))), omitted: [] };
}

function asWrittenEntry(c: Candidate, written: { content: string; tokens: number }): Entry {
  const { imports: _expanded, ...entry } = toEntry(c);
  return { ...entry, content: written.content, tokens: written.tokens };
}
