import { ContextCollector } from "../../core/collector.js";
import { describeHidden } from "../../core/hidden.js";
import { safeMessage } from "../../core/redact.js";
import { renderPending } from "../../core/render/pending.js";
import { gateText } from "../../core/text-gate.js";
import { approxTokens } from "../../core/tokens.js";
import type { Format, Warning } from "../../core/types.js";
import type { StoredEntry } from "../../io/session/session-store.js";
import { printWarnings, type CliContext } from "../context.js";

/**
 * Session entries in collector order (priority, then registration; one copy of each content), rendered. What was
 * registered is anyone's text (a tool's output, a pasted file): it leaves as every output does, without hidden
 * characters and with credentials redacted, each told in a warning naming the entry.
 */
export function renderSessionEntries(ctx: CliContext, sessionId: string, stored: StoredEntry[], format: Format): string {
  const collector = new ContextCollector();
  const warnings: Warning[] = [];
  for (const e of stored) {
    const source = safeMessage(e.source, 200);
    const id = safeMessage(e.id, 200);
    const where = `session:${source}:${id}`;
    const gated = gateText(e.content);
    if (gated.hidden !== null) warnings.push({ file: where, line: gated.hidden.line, message: `${describeHidden(gated.hidden).replace(" (", " removed (")}` });
    for (const r of gated.redactions) warnings.push({ file: where, line: r.line, message: `redacted a ${r.kind}` });
    collector.register(sessionId, { source, id, content: gated.text, priority: e.priority });
  }
  printWarnings(ctx, warnings);
  return renderPending(collector.getPending(sessionId), format, approxTokens);
}
