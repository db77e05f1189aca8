import { firstOfEachText } from "../collector.js";
import { flattenImports } from "../parse/imports.js";
import { setStatus } from "../sources/source.js";
import type { Candidate, Entry } from "../types.js";

/**
 * One copy of every text: the collector keeps the first registration of a content; a text the agent already
 * has (loaded natively, or injected earlier in the session) leaves its copies out too. Returns the entries.
 */
export function dedupPhase(ordered: Candidate[], known: Candidate[], realPathOf: Map<string, string>): Entry[] {
  dropImported(ordered, known, realPathOf);
  // Registered in this order, as into the collector: the order phase left one included candidate per source:id.
  const { kept, duplicates } = firstOfEachText(ordered.filter((c) => c.status === "included"));
  for (const { item: dup, keptBy: kept } of duplicates) {
    const sameFile = dup.path !== null && kept.path !== null && realPathOf.get(dup.path) === realPathOf.get(kept.path);
    setStatus(dup, "duplicate", `${sameFile ? "same file as" : "same content as"} ${kept.path ?? kept.id}`);
  }
  dropContained(kept);
  const twins = new Map<string, Candidate>();
  for (const c of known) {
    const text = c.content.trim();
    if (!twins.has(text)) twins.set(text, c);
  }
  const entries: Entry[] = [];
  for (const candidate of kept) {
    if (candidate.status === "duplicate") continue;
    // Looked up only when the agent has something: a lookup hashes the whole text again (--all's megabytes).
    const twin = twins.size > 0 ? twins.get(candidate.content.trim()) : undefined;
    if (twin) setStatus(candidate, "duplicate", `same content as ${twin.path ?? twin.id} (${twin.status === "already-injected" ? "already injected" : twin.reason})`);
    else entries.push(toEntry(candidate));
  }
  return entries;
}

/** Shorter texts are too common to call a copy (a heading, "See AGENTS.md"). */
const MIN_CONTAINED = 200;

/**
 * A text found whole inside a longer one that is sent too (a rule an AGENTS.md copies after its own preamble) is
 * sent once, in the longer: the shorter is a duplicate. A probe of the shorter's start is looked for first, so most
 * pairs cost one short search.
 */
function dropContained(kept: Candidate[]): void {
  const long = kept.filter((c) => c.content.length >= MIN_CONTAINED).sort((a, b) => b.content.length - a.content.length);
  // Longest first, so a text is named as inside one that is itself sent.
  for (let i = 1; i < long.length; i++) {
    const small = long[i]!;
    const text = small.content.trim();
    const probe = text.slice(0, 64);
    for (let j = 0; j < i; j++) {
      const large = long[j]!;
      if (large.status === "duplicate" || large.content.length === small.content.length) continue;
      if (!large.content.includes(probe) || !large.content.includes(text)) continue;
      setStatus(small, "duplicate", `its whole text is inside ${large.path ?? large.id}`);
      break;
    }
  }
}

/**
 * A file an included agent file imports is already in that entry: its own entry is a duplicate. So is a file
 * that something the agent already has imports.
 */
function dropImported(ordered: Candidate[], known: Candidate[], realPathOf: Map<string, string>): void {
  const real = (path: string) => realPathOf.get(path) ?? path;
  const importers = new Map<string, { by: Candidate; known: boolean }>();
  for (const by of ordered) {
    if (by.status !== "included" || !by.imports) continue;
    for (const path of flattenImports(by.imports)) if (!importers.has(real(path))) importers.set(real(path), { by, known: false });
  }
  for (const by of known) for (const path of flattenImports(by.imports ?? [])) if (!importers.has(real(path))) importers.set(real(path), { by, known: true });
  for (const candidate of ordered) {
    if (candidate.status !== "included" || candidate.path === null) continue;
    const hit = importers.get(real(candidate.path));
    if (hit === undefined || hit.by === candidate) continue;
    const note = hit.known ? ` (${hit.by.status === "already-injected" ? "already injected" : hit.by.reason})` : "";
    setStatus(candidate, "duplicate", `imported by ${hit.by.path ?? hit.by.id}${note}`);
  }
}

export function toEntry(c: Candidate): Entry {
  const entry: Entry = { source: c.source, id: c.id, priority: c.priority, kind: c.kind, path: c.path, tokens: c.tokens, content: c.content, truncated: c.truncated, globs: c.globs };
  if (c.imports !== undefined) entry.imports = c.imports;
  return entry;
}
