import type { PendingContext } from "../collector.js";
import type { CountTokens } from "../tokens.js";
import type { Entry, Format } from "../types.js";
import { render } from "./index.js";

/** A collector's pending context rendered like a build: same formats, provenance per entry. */
export function renderPending(pending: PendingContext, format: Format, countTokens: CountTokens): string {
  const entries: Entry[] = pending.entries.map((e) => ({
    source: e.source,
    id: e.id,
    priority: e.priority,
    kind: "session",
    path: null,
    tokens: countTokens(e.content),
    content: e.content,
    truncated: false,
    globs: [],
  }));
  return render(format, { root: "", targets: [], tokenizer: "approx", maxTokens: null, entries, omitted: [], provenance: true, all: false }, countTokens);
}
