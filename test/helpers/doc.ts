import type { ContextDocument } from "../../src/core/render/document.js";
import type { Entry, Omitted } from "../../src/core/types.js";

export function entry(id: string, content: string, extra: Partial<Entry> = {}): Entry {
  return { source: "rules-injector", id, priority: "normal", kind: "always", path: id, tokens: 1, content, truncated: false, globs: [], ...extra };
}

export function omittedItem(id: string, description: string | null): Omitted {
  return { source: "rules-injector", id, priority: "normal", path: id, description, tokens: 7, reason: "description only" };
}

export function doc(entries: Entry[], extra: Partial<ContextDocument> = {}): ContextDocument {
  return { root: "/repo", targets: [], tokenizer: "approx", maxTokens: null, entries, omitted: [], provenance: true, all: false, ...extra };
}
