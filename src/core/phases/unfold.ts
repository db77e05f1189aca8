import { MAX_ENTRY_CHARS } from "./gate.js";
import { parseFrontmatter } from "../parse/frontmatter.js";
import { makeCandidate, setStatus } from "../sources/source.js";
import type { RunMemo } from "../run-memo.js";
import type { CountTokens } from "../tokens.js";
import type { Candidate, ImportNode, SourceFile, Warning } from "../types.js";
import type { Drafted } from "./drafted.js";

/**
 * An importing file "unfolded": sent as written (its `@imports` left as they are, each a pointer) with every file of
 * its import tree an entry of its own, once each, in the order the expansion reads them. Two things unfold one:
 * - its text with its imports is larger than MAX_ENTRY_CHARS (select, before the gate): the cap would cut the
 *   imported files' text, and they were marked as carried by the importer, so they vanished;
 * - under a budget, its expansion does not fit whole (compose): a budget can then rank and leave out each imported
 *   file by name, like any other entry, instead of cutting the chain from the top.
 * Whatever fits whole stays folded: what an agent that expands imports reads is unchanged.
 */

const keyOf = (c: { source: string; id: string }) => `${c.source}:${c.id}`;

/** The paths of an import tree, depth first, each once. */
export function importedPaths(nodes: readonly ImportNode[], out: string[] = [], seen = new Set<string>()): string[] {
  for (const node of nodes) {
    if (seen.has(node.path)) continue;
    seen.add(node.path);
    out.push(node.path);
    importedPaths(node.imports, out, seen);
  }
  return out;
}

/** What a part of an unfolded importer is made from: the run's files, their bodies, the token counter. */
export interface PartSource {
  files: ReadonlyMap<string, SourceFile>;
  memo: RunMemo;
  countTokens: CountTokens;
}

/** An imported file that no source module reads (`@docs/glossary.md`): an entry of the importer's source and kind. */
export function madePart(importer: Candidate, path: string, source: PartSource): Candidate | null {
  const file = source.files.get(path);
  if (file === undefined) return null;
  const body = parseFrontmatter(file.text, file.path, source.memo).body.trim();
  const part = makeCandidate({
    source: importer.source,
    id: path,
    priority: importer.priority,
    kind: importer.kind,
    path,
    content: body,
    countTokens: source.countTokens,
  });
  part.importedBy = keyOf(importer);
  return part;
}

/** A part's text as written: a file that imports is unfolded too (its imports are parts of the same tree). */
export function asWrittenPart(c: Candidate): { content: string; tokens: number } {
  return c.asWritten ?? { content: c.content, tokens: c.tokens };
}

/**
 * Select's step before the gate: an importing file whose text with its imports is larger than MAX_ENTRY_CHARS, and
 * that the agent does not load itself, is unfolded (see above). Its imported files that are candidates are sent as
 * written; those no module reads are drafted here, right after it.
 */
export function unfoldOversized(drafts: Drafted[], source: PartSource, agentHas: (c: Candidate) => boolean, warn: (w: Warning) => void): void {
  let byPath: Map<string, Drafted> | undefined;
  for (const importer of [...drafts]) {
    const c = importer.candidate;
    if (c.status !== "included" || c.imports === undefined || c.asWritten === undefined || c.content.length <= MAX_ENTRY_CHARS || agentHas(c)) continue;
    byPath ??= new Map(drafts.filter((d) => d.candidate.path !== null).map((d) => [d.candidate.path!, d]));
    const where = c.path ?? c.id;
    const why = `imported by ${where}, whose text with its imports is larger than ${MAX_ENTRY_CHARS} characters: sent on its own`;
    const paths = importedPaths(c.imports);
    paths.forEach((path, i) => {
      const found = byPath!.get(path);
      if (found === undefined) {
        const part = madePart(c, path, source);
        if (part === null) return;
        setStatus(part, "included", why);
        // Right after the importer, in the order its expansion reads them.
        const drafted: Drafted = {
          candidate: part,
          key: { folder: importer.key.folder, rank: importer.key.rank + (i + 1) / (paths.length + 1), path },
          module: importer.module,
          moduleIndex: importer.moduleIndex,
        };
        drafts.push(drafted);
        // A file two importers bring in is one entry, the first one's.
        byPath!.set(path, drafted);
        return;
      }
      const part = found.candidate;
      part.importedBy ??= keyOf(c);
      if (part.asWritten !== undefined) sendAsWritten(part);
      if (part.status === "unmatched" || part.status === "below-threshold" || part.status === "manual") setStatus(part, "included", why);
    });
    sendAsWritten(c);
    c.reason = `${c.reason}; with its imports larger than ${MAX_ENTRY_CHARS} characters: sent as written, each imported file an entry of its own`;
    warn({
      ...(c.path !== null && { file: c.path }),
      message: `larger than ${MAX_ENTRY_CHARS} characters with its imports; sent as written, each imported file an entry of its own`,
    });
  }
}

/** The importer's own text, its imports as written: what it says, and where each imported file's own entry comes from. */
function sendAsWritten(c: Candidate): void {
  const written = asWrittenPart(c);
  c.content = written.content;
  c.tokens = written.tokens;
  c.unfolded = true;
}

/**
 * The parts of each unfolded importer right after it, in the order its expansion read them: the output reads as the
 * folded text did, and on a tie the budget leaves out the last import first (budget/evidence.ts: the later gives way).
 */
export function placeAfterImporters<T extends Candidate>(ordered: T[]): T[] {
  if (!ordered.some((c) => c.importedBy !== undefined)) return ordered;
  const partsOf = new Map<string, T[]>();
  const importers = new Map<string, T>();
  for (const c of ordered) if (c.unfolded === true && c.importedBy === undefined) importers.set(keyOf(c), c);
  for (const c of ordered) {
    if (c.importedBy === undefined || !importers.has(c.importedBy)) continue;
    const list = partsOf.get(c.importedBy) ?? [];
    list.push(c);
    partsOf.set(c.importedBy, list);
  }
  const placed = new Set([...partsOf.values()].flat());
  const out: T[] = [];
  for (const c of ordered) {
    if (placed.has(c)) continue;
    out.push(c);
    const parts = partsOf.get(keyOf(c));
    if (parts === undefined) continue;
    const at = new Map(importedPaths(c.imports ?? []).map((path, i) => [path, i]));
    out.push(...parts.sort((a, b) => (at.get(a.path ?? "") ?? 0) - (at.get(b.path ?? "") ?? 0)));
  }
  return out;
}

/**
 * For compose: the parts an importer that is sent folded would be unfolded into, made when a budget asks (most
 * builds fit, and never ask). Each is a fresh candidate, sent as written: a file the selection holds (a rule the
 * importer carries, or one that did not apply by itself) as it is there; one no module reads, made from its file.
 * A file the agent already has, or whose text is sent by another entry, is no part.
 */
export function importPartsOf(candidates: readonly Candidate[], source: PartSource): (importer: Candidate) => Candidate[] {
  let byPath: Map<string, Candidate> | undefined;
  return (importer) => {
    byPath ??= new Map(candidates.filter((c) => c.path !== null).map((c) => [c.path!, c]));
    const key = keyOf(importer);
    const parts: Candidate[] = [];
    for (const path of importedPaths(importer.imports ?? [])) {
      const found = byPath.get(path);
      if (found === undefined) {
        const made = madePart(importer, path, source);
        if (made !== null) parts.push(made);
        continue;
      }
      const carried = found.status === "duplicate" && found.heldBy === key;
      if (!carried && found.status !== "unmatched" && found.status !== "below-threshold" && found.status !== "manual") continue;
      const written = asWrittenPart(found);
      const part: Candidate = { ...found, content: written.content, tokens: written.tokens, importedBy: key };
      delete part.heldBy;
      delete part.nearCopyOf;
      if (found.asWritten !== undefined) part.unfolded = true;
      parts.push(part);
    }
    return parts;
  };
}
