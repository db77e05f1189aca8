import { flattenImports } from "../parse/imports.js";
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
  /** It has the file inside another's text: the file it loads whose `@imports` bring this one in. */
  through?: string;
}

/**
 * What an agent's own loader gives it of these candidates, for targets worked on from `workingFolder`: the profile
 * the hooks use to skip what their agent has, asked for every candidate (`explain --as`).
 */
export function agentView(profile: AgentProfile, candidates: Candidate[], targets: string[], workingFolder: string): AgentView[] {
  const byPath = new Map(candidates.filter((c) => c.path !== null).map((c) => [c.path!, c]));
  const present = new Set([...byPath.keys(), ...candidates.flatMap((c) => c.aliases ?? [])]);
  const context = { present, workingFolder, reads: targets, bytesOf: (path: string) => utf8Bytes(byPath.get(path)?.content ?? "") };
  const views = candidates.map((c): AgentView => {
    const reason = loadsThroughAnyPath(profile.loadsItself, c, context);
    if (reason !== null) return { agent: profile.name, loads: true, reason };
    const skip = profile.skips?.(c) ?? null;
    if (skip !== null) return { agent: profile.name, loads: false, reason: skip, skipped: true };
    const why =
      c.path === null
        ? `${profile.name} knows nothing of ctxinject's own entries (keyword modes, config and session entries)`
        : `${profile.name} does not load it by itself here`;
    return { agent: profile.name, loads: false, reason: why };
  });
  return profile.expandsImports === true ? withImported(profile, candidates, views) : views;
}

/**
 * An agent that expands `@imports` has each file the files it loads import (a CLAUDE.md that is only `@AGENTS.md`
 * gives Claude Code the AGENTS.md), under the file's own path or any other path that reaches it.
 */
function withImported(profile: AgentProfile, candidates: Candidate[], views: AgentView[]): AgentView[] {
  const importer = new Map<string, string>();
  candidates.forEach((c, i) => {
    if (!views[i]!.loads || c.imports === undefined || c.path === null) return;
    for (const path of flattenImports(c.imports)) if (!importer.has(path)) importer.set(path, c.path);
  });
  if (importer.size === 0) return views;
  return views.map((view, i) => {
    const c = candidates[i]!;
    if (view.loads || c.path === null) return view;
    const by = [c.path, ...(c.aliases ?? [])].map((p) => importer.get(p)).find((p) => p !== undefined);
    return by === undefined
      ? view
      : { agent: profile.name, loads: true, reason: `${profile.name} reads it through ${by}, whose @imports bring it in`, through: by };
  });
}

/**
 * `build --as AGENT`: what that agent sees by itself — the candidates its own loader gives it, in ctxinject's order,
 * each as it is (two files with the same text are two, as the agent reads them; a file's `@imports` expanded only
 * for an agent that expands them); nothing of ctxinject's own.
 */
export function agentSelection(profile: AgentProfile, selection: Selection, workingFolder: string): Selection {
  const views = agentView(profile, selection.candidates, selection.targets, workingFolder);
  // A file it has through another's imports is in that file's entry already.
  // An importer unfolded over the entry cap (phases/unfold.ts) holds none of its imports' text: each is its own entry.
  const unfolded = new Set(selection.candidates.filter((c) => c.unfolded === true && c.path !== null).map((c) => c.path!));
  const seen = selection.candidates.filter(
    (c, i) => views[i]!.loads && (views[i]!.through === undefined || unfolded.has(views[i]!.through!)) && c.status !== "invalid",
  );
  // As the agent reads it: an import chain is not unfolded under a budget here (phases/unfold.ts).
  const { importParts: _unfold, ...plain } = selection;
  return {
    ...plain,
    entries: seen.map((c) => (profile.expandsImports === true || c.asWritten === undefined ? toEntry(c) : asWrittenEntry(c, c.asWritten))),
    omitted: [],
  };
}

function asWrittenEntry(c: Candidate, written: { content: string; tokens: number }): Entry {
  const { imports: _expanded, ...entry } = toEntry(c);
  return { ...entry, content: written.content, tokens: written.tokens };
}
