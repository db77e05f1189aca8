import { ContextCollector } from "../../core/collector.js";
import { renderPending } from "../../core/render/pending.js";
import { approxTokens } from "../../core/tokens.js";
import type { Format } from "../../core/types.js";
import type { StoredEntry } from "../../io/session-store.js";

/** Session entries in collector order (priority, then registration; one copy of each content), rendered. */
export function renderSessionEntries(sessionId: string, stored: StoredEntry[], format: Format): string {
  const collector = new ContextCollector();
  for (const e of stored) collector.register(sessionId, e);
  return renderPending(collector.getPending(sessionId), format, approxTokens);
}
