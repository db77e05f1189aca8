import { keyOf } from "../collector.js";
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

/** The paths of an import tree, depth first, each once. */
function importedPaths(nodes: readonly ImportNode[], out: string[] = [], seen = new Set<string>()): string[] {
  for (const node of nodes) {
    if (seen.has(node.path)) continue;
    seen.add(node.path);
    out.push(node.path);
    importedPaths(node.imports, out, seen);
  }
  return out;
}

/** What a part of an unfolded importer is made from: the run's files, their bodies, the token counter. */
interface PartSource {
  files: ReadonlyMap<string, SourceFile>;
  memo: RunMemo;
  countTokens: CountTokens;
}

/** An imported file that no source module reads (`@docs/glossary.md`): an entry of the importer's source and kind. */
function madePart(importer: Candidate, path: string, source: PartSource): Candidate | null {
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
function asWrittenPart(c: Candidate): { content: string; tokens: number } {
  return c.asWritten ?? { content: c.content, tokens: c.tokens };
}

/** What an importer's text with its imports did, in the words of its own reason and of its parts'. */
interface UnfoldCause {
  /** After the importer's reason: "with its imports larger than … characters". */
  importer: string;
  /** In each part's reason, after "whose text with its imports": "is larger than … characters". */
  parts: string;
}

/**
 * One importer unfolded, in place (select's drafts are its own; compose hands in copies): sent as written, and each
 * of `parts` (the files of its tree it sends on their own) included, saying whose import it is.
 */
export function unfoldImporter(importer: Candidate, parts: readonly Candidate[], cause: UnfoldCause): void {
  const why = `imported by ${importer.path ?? importer.id}, whose text with its imports ${cause.parts}: sent on its own`;
  for (const part of parts) setStatus(part, "included", why);
  sendAsWritten(importer);
  importer.reason = `${importer.reason}; ${cause.importer}: sent as written, each imported file an entry of its own`;
}

/** A file of an importer's tree: the selection's candidate for it (`found`), or one made from its file (`made`). */
type TreeFile = { found: Candidate; made?: undefined } | { found?: undefined; made: Candidate };

/**
 * Each file of an importer's tree, in the order its expansion reads them, once (`i` of `count` paths): a path with no
 * candidate and no file is passed over.
 */
function forEachTreeFile(
  importer: Candidate,
  foundAt: (path: string) => Candidate | undefined,
  source: PartSource,
  visit: (file: TreeFile, path: string, i: number, count: number) => void,
): void {
  const paths = importedPaths(importer.imports ?? []);
  paths.forEach((path, i) => {
    const found = foundAt(path);
    if (found !== undefined) return visit({ found }, path, i, paths.length);
    const made = madePart(importer, path, source);
    if (made !== null) visit({ made }, path, i, paths.length);
  });
}

/**
 * Whether a file of an importer's tree that the selection holds is one of its parts: one that did not apply by itself,
 * or a copy whose text the importer carries (compose: dedup made it a duplicate of the importer's text).
 */
function isPart(found: Candidate, importerKey: string): boolean {
  return (
    found.status === "unmatched" ||
    found.status === "below-threshold" ||
    found.status === "manual" ||
    (found.status === "duplicate" && found.heldBy === importerKey)
  );
}

/**
 * Select's step before the gate: an importing file whose text with its imports is larger than MAX_ENTRY_CHARS, and
 * that the agent does not load itself, is unfolded (see above). Its imported files that are candidates are sent as
 * written; those no module reads are drafted here, right after it.
 */
export function unfoldOversized(drafts: Drafted[], source: PartSource, agentHas: (c: Candidate) => boolean, warn: (w: Warning) => void): void {
  let byPath: Map<string, Drafted> | undefined;
  const cause = { importer: `with its imports larger than ${MAX_ENTRY_CHARS} characters`, parts: `is larger than ${MAX_ENTRY_CHARS} characters` };
  for (const importer of [...drafts]) {
    const c = importer.candidate;
    if (c.status !== "included" || c.imports === undefined || c.asWritten === undefined || c.content.length <= MAX_ENTRY_CHARS || agentHas(c)) continue;
    byPath ??= new Map(drafts.filter((d) => d.candidate.path !== null).map((d) => [d.candidate.path!, d]));
    const key = keyOf(c);
    const parts: Candidate[] = [];
    forEachTreeFile(
      c,
      (path) => byPath!.get(path)?.candidate,
      source,
      ({ found, made }, path, i, count) => {
        if (made !== undefined) {
          // Right after the importer, in the order its expansion reads them.
          const drafted: Drafted = {
            candidate: made,
            key: { folder: importer.key.folder, rank: importer.key.rank + (i + 1) / (count + 1), path },
            module: importer.module,
            moduleIndex: importer.moduleIndex,
          };
          drafts.push(drafted);
          // A file two importers bring in is one entry, the first one's.
          byPath!.set(path, drafted);
          parts.push(made);
          return;
        }
        found.importedBy ??= key;
        if (found.asWritten !== undefined) sendAsWritten(found);
        if (isPart(found, key)) parts.push(found);
      },
    );
    unfoldImporter(c, parts, cause);
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
    forEachTreeFile(
      importer,
      (path) => byPath!.get(path),
      source,
      ({ found, made }) => {
        if (made !== undefined) parts.push(made);
        else if (isPart(found, key)) {
          const part: Candidate = { ...found, importedBy: key };
          delete part.heldBy;
          delete part.nearCopyOf;
          if (found.asWritten !== undefined) sendAsWritten(part);
          parts.push(part);
        }
      },
    );
    return parts;
  };
}
