import { keyOf, SEPARATOR } from "./collector.js";
import { evidenceStrength, nearestAgentFiles, strongerOf, weakestFirst } from "./budget/evidence.js";
import { carriedTexts, textLost } from "./budget/carried.js";
import { charsBeforeNote, fitToBudget } from "./budget/fit.js";
import { toEntry } from "./phases/dedup.js";
import { placeAfterImporters, unfoldImporter } from "./phases/unfold.js";
import { render, type ContextDocument } from "./render/index.js";
import type { Selection } from "./select.js";
import type { CountTokens } from "./tokens.js";
import type { Candidate, Entry, Format, Omitted, TokenizerName } from "./types.js";

interface ComposeOptions {
  format: Format;
  root: string;
  tokenizer: TokenizerName;
  maxTokens: number | null;
  countTokens: CountTokens;
  provenance: boolean;
  all: boolean;
  /**
   * An index line the reader was given before (earlier in a hook's session): left out of the index, whether the
   * entry was below the threshold or left out by the budget. Only lines not yet given are listed.
   */
  named?: (line: Omitted) => boolean;
}

export interface Composed {
  output: string;
  doc: ContextDocument;
  /** The selection's candidates with budget decisions (trimmed, over-budget) recorded. */
  candidates: Candidate[];
}

/**
 * Renders a selection in a format, within the token budget when there is one. For markdown, xml and compact
 * the budget bounds the whole output; for json it bounds `merged`, the text a tool would inject (the JSON
 * around it is a report, not context).
 */
export function compose(selection: Selection, options: ComposeOptions): Composed {
  const first = fitSelection(selection, options);
  if (options.maxTokens === null || selection.importParts === undefined) return first.composed;
  // An importing entry that did not fit whole is sent as written, each imported file an entry the budget ranks and
  // leaves out by name (phases/unfold.ts); what fits whole stays as the agent that expands imports reads it.
  const over = new Set([first.trimmed, ...first.dropped]);
  const importers = selection.entries.filter((e) => e.imports !== undefined && over.has(keyOf(e))).map(keyOf);
  if (importers.length === 0) return first.composed;
  return fitSelection(unfoldImporters(selection, new Set(importers), selection.importParts, options.maxTokens), options).composed;
}

/** The selection with these importers unfolded: each sent as written, its parts entries right after it. */
function unfoldImporters(selection: Selection, importers: ReadonlySet<string>, partsOf: (importer: Candidate) => Candidate[], maxTokens: number): Selection {
  const replaced = new Map<string, Candidate>();
  const added: Candidate[] = [];
  const entriesAfter = new Map<string, Entry[]>();
  const selected = new Set(selection.candidates.map(keyOf));
  const made = new Set<string>();
  const cause = {
    importer: `its text with its imports did not fit whole in --max-tokens ${maxTokens}`,
    parts: `did not fit whole in --max-tokens ${maxTokens}`,
  };
  for (const c of selection.candidates) {
    const key = keyOf(c);
    if (c.status !== "included" || !importers.has(key)) continue;
    const importer: Candidate = { ...c };
    replaced.set(key, importer);
    // A file two importers bring in is one entry, the first one's. Each part is a fresh candidate (importPartsOf).
    const parts = partsOf(c).filter((p) => !replaced.has(keyOf(p)) && !made.has(keyOf(p)));
    unfoldImporter(importer, parts, cause);
    for (const sent of parts) {
      if (selected.has(keyOf(sent))) replaced.set(keyOf(sent), sent);
      else {
        made.add(keyOf(sent));
        added.push(sent);
      }
    }
    entriesAfter.set(key, [toEntry(importer), ...parts.map(toEntry)]);
  }
  const candidates = placeAfterImporters([...selection.candidates.map((c) => replaced.get(keyOf(c)) ?? c), ...added]);
  const entries = selection.entries.flatMap((e) => entriesAfter.get(keyOf(e)) ?? [e]);
  return { ...selection, candidates, entries };
}

/** A selection fitted to the budget, with what gave way (`source:id` of the entry cut, and of those left out). */
function fitSelection(selection: Selection, options: ComposeOptions): { composed: Composed; trimmed: string | null; dropped: string[] } {
  const named = options.named;
  const doc: ContextDocument = {
    root: options.root,
    targets: selection.targets,
    tokenizer: options.tokenizer,
    maxTokens: options.maxTokens,
    entries: selection.entries,
    omitted: named ? selection.omitted.filter((line) => !named(line)) : selection.omitted,
    provenance: options.provenance,
    all: options.all,
  };
  if (options.maxTokens === null) {
    return { composed: { output: render(options.format, doc, options.countTokens), doc, candidates: selection.candidates }, trimmed: null, dropped: [] };
  }

  // Both looked up only when the entries do not all fit (fitToBudget calls them then): most builds fit.
  let byKey: Map<string, Candidate> | undefined;
  const maxTokens = options.maxTokens;
  const describe = (entry: Entry): Omitted => ({
    source: entry.source,
    id: entry.id,
    priority: entry.priority,
    path: entry.path,
    description: (byKey ??= new Map(selection.candidates.map((c) => [keyOf(c), c]))).get(keyOf(entry))?.description ?? null,
    tokens: entry.tokens,
    reason: `over budget: ${entry.tokens} tokens did not fit in --max-tokens ${maxTokens}`,
  });
  // The duplicates each entry carries the text of, worked out when the entries do not all fit.
  let carriedBy: Map<string, Candidate[]> | undefined;
  const carriedOf = (entry: Entry) => (carriedBy ??= carriedTexts(selection.candidates, selection.entries)).get(keyOf(entry)) ?? [];
  // What gives way first is the weakest evidence; the output keeps its (priority, registration) order. An entry that
  // carries another's text (an always-rule an AGENTS.md copies) is as strong as what it carries.
  const dropOrder = () => {
    const nearest = nearestAgentFiles(selection.candidates, selection.targets);
    const includedByKey = new Map(selection.candidates.filter((c) => c.status === "included").map((c) => [keyOf(c), c]));
    const own = (c: Candidate) => evidenceStrength(c, nearest, selection.targets);
    // An imported file sent on its own is as strong as the file that imports it, at least.
    const strength = (c: Candidate) => {
      const importer = c.importedBy === undefined ? undefined : includedByKey.get(c.importedBy);
      return importer === undefined ? own(c) : strongerOf(own(c), own(importer));
    };
    return weakestFirst(
      selection.entries.map((e) => {
        const candidate = includedByKey.get(keyOf(e));
        return candidate ? carriedOf(e).map(strength).reduce(strongerOf, strength(candidate)) : ([0, 0, 0] as const);
      }),
    );
  };
  const carriedOut = (d: Candidate, holder: string): Omitted => ({
    source: d.source,
    id: d.id,
    priority: d.priority,
    path: d.path,
    description: d.description,
    tokens: d.tokens,
    reason: `over budget: its text was sent as part of ${holder}, which did not fit whole in --max-tokens ${maxTokens}`,
  });
  const fitted = fitToBudget({
    dropOrder,
    carried: (entry, sent) =>
      carriedOf(entry)
        .filter((d) => textLost(d, sent))
        .map((d) => carriedOut(d, entry.path ?? entry.id)),
    entries: selection.entries,
    omitted: doc.omitted,
    countTokens: options.countTokens,
    maxTokens,
    describe,
    ...(named && { named }),
    render: (entries, omitted, more) =>
      options.format === "json"
        ? entries.map((e) => e.content).join(SEPARATOR)
        : render(options.format, { ...doc, entries, omitted, omittedMore: more }, options.countTokens),
  });

  const entries = fitted.entries;
  const dropped = new Set(fitted.dropped);
  // A duplicate whose copy gave way or was cut without its text is left out with it.
  const lostWith = new Map<string, string>();
  if (carriedBy !== undefined) {
    for (const e of selection.entries) {
      const key = keyOf(e);
      const sent = dropped.has(key) ? null : key === fitted.trimmed ? entries.find((k) => keyOf(k) === key)! : undefined;
      if (sent === undefined) continue;
      for (const d of carriedOf(e)) if (textLost(d, sent)) lostWith.set(keyOf(d), e.path ?? e.id);
    }
  }
  // A budget smaller than the names of what is left out shortens the index to "… and N more": explain says which.
  const inIndex = fitted.more > 0 ? new Set(fitted.omitted.map(keyOf)) : undefined;
  const namedBefore = new Set(fitted.namedBefore);
  const unnamed = `; not named in the index either (--max-tokens ${maxTokens} has no room for every name: one of the "… and ${fitted.more} more")`;
  // The reason it was chosen stays in front: what the budget weighed it by.
  const candidates = selection.candidates.map((c) => {
    const key = keyOf(c);
    if (key === fitted.trimmed) {
      const kept = entries.find((e) => keyOf(e) === key)!;
      return {
        ...c,
        status: "trimmed" as const,
        truncated: true,
        sentChars: charsBeforeNote(kept),
        reason: `${c.reason}; cut by the budget to ${kept.tokens} of ${c.tokens} tokens to fit --max-tokens ${maxTokens}`,
      };
    }
    if (dropped.has(key)) {
      const where = namedBefore.has(key)
        ? "; named in an index given earlier in this session"
        : inIndex === undefined || inIndex.has(key)
          ? "; listed in the index"
          : unnamed;
      return {
        ...c,
        status: "over-budget" as const,
        reason: `${c.reason}; left out by the budget: ${c.tokens} tokens did not fit in --max-tokens ${maxTokens} beside stronger evidence${where}`,
      };
    }
    const holder = lostWith.get(key);
    if (holder !== undefined) {
      const where = inIndex === undefined || inIndex.has(key) ? "; listed in the index" : unnamed;
      return {
        ...c,
        status: "over-budget" as const,
        reason: `${c.reason}; left out with it: ${holder} did not fit whole in --max-tokens ${maxTokens}${where}`,
      };
    }
    if (inIndex !== undefined && c.status === "below-threshold" && !inIndex.has(key))
      return { ...c, reason: c.reason.replace(/; listed in the index$/, "") + unnamed };
    return c;
  });
  const fittedDoc: ContextDocument = { ...doc, entries, omitted: fitted.omitted, omittedMore: fitted.more };
  const output = options.format === "json" ? render("json", fittedDoc, options.countTokens) : fitted.output;
  return { composed: { output, doc: fittedDoc, candidates }, trimmed: fitted.trimmed, dropped: fitted.dropped };
}
