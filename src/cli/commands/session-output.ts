import { ContextCollector } from "../../core/collector.js";
import { render } from "../../core/render/index.js";
import { approxTokens } from "../../core/tokens.js";
import type { Entry, Format } from "../../core/types.js";
import type { StoredEntry } from "../../io/session-store.js";

/** Session entries in collector order (priority, then registration; one copy of each content), rendered. */
export function renderSessionEntries(sessionId: string, stored: StoredEntry[], format: Format): string {
  const collector = new ContextCollector();
  for (const e of stored) collector.register(sessionId, e);
  const entries: Entry[] = collector.getPending(sessionId).entries.map((e) => ({
    source: e.source,
    id: e.id,
    priority: e.priority,
    kind: "session",
    path: null,
    tokens: approxTokens(e.content),
    content: e.content,
    truncated: false,
    globs: [],
  }));
  return render(format, { root: "", targets: [], tokenizer: "approx", maxTokens: null, entries, omitted: [], provenance: true, all: false }, approxTokens);
}
