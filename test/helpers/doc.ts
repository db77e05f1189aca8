import type { ContextDocument } from "../../src/core/render/document.js";
import type { Entry, Omitted } from "../../src/core/types.js";

export function entry(id: string, content: string, extra: Partial<Entry> = {}): Entry {
  return { source: "rules-injector", id, priority: "normal", kind: "always", path: id, tokens: 1, content, truncated: false, globs: [], ...extra };
}

/** How many times `needle` occurs in `text`. */
export const countOf = (text: string, needle: string): number => text.split(needle).length - 1;

/** An entry as the index lists it when the budget leaves it out, with no description. */
export function leftOut(e: Entry, reason: string): Omitted {
  return { source: e.source, id: e.id, priority: e.priority, path: e.path, description: null, tokens: e.tokens, reason };
}

export function omittedItem(id: string, description: string | null): Omitted {
  return { source: "rules-injector", id, priority: "normal", path: id, description, tokens: 7, reason: "description only" };
}

export function doc(entries: Entry[], extra: Partial<ContextDocument> = {}): ContextDocument {
  return { root: "/repo", targets: [], tokenizer: "approx", maxTokens: null, entries, omitted: [], provenance: true, all: false, ...extra };
}
