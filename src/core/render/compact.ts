import type { ContextDocument } from "./document.js";
import { guardCompact, safeId } from "./guard.js";

/**
 * Fewest tokens, same information: a header line per entry, then the content with HTML comments,
 * horizontal rules, badge lines and blank lines removed and runs of spaces collapsed — never inside code fences.
 */
export function renderCompact(doc: ContextDocument): string {
  const blocks = doc.entries.map((e) => `## ${safeId(e.id)} [${safeId(e.source)} ${e.priority}]\n${guardCompact(compactText(e.content))}`.trimEnd());
  const more = doc.omittedMore ?? 0;
  if (doc.omitted.length > 0 || more > 0) {
    const items = doc.omitted.map((o) => `${safeId(o.path ?? o.id)} (${o.tokens}t)${o.description ? `: ${collapse(o.description)}` : ""}`);
    if (more > 0) items.push(`+${more} more (ctxinject explain)`);
    blocks.push(`## index: read on demand\n${items.join("\n")}`);
  }
  return blocks.length === 0 ? "" : `${blocks.join("\n")}\n`;
}

export function compactText(text: string): string {
  const out: string[] = [];
  let fence: string | null = null;
  const withoutComments = stripCommentsOutsideFences(text);
  for (const line of withoutComments.split("\n")) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      out.push(line.trimEnd());
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
      continue;
    }
    if (marker) {
      fence = marker;
      out.push(line.trim());
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === "") continue;
    if (/^([-*_])(\s*\1){2,}$/.test(trimmed)) continue;
    if (/^(\[?!\[[^\]]*\]\([^)]*\)\]?(\([^)]*\))?\s*)+$/.test(trimmed)) continue;
    const indent = /^\s*/.exec(line)?.[0].length ?? 0;
    out.push(" ".repeat(Math.min(indent, 4)) + collapse(trimmed));
  }
  return out.join("\n");
}

function collapse(text: string): string {
  // Inline code keeps its spacing; everything else collapses to single spaces.
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/\s+/g, " ")))
    .join("");
}

function stripCommentsOutsideFences(text: string): string {
  const parts = text.split(/(^\s*(?:`{3,}|~{3,})[^\n]*\n[\s\S]*?^\s*(?:`{3,}|~{3,})\s*$)/m);
  return parts.map((part, i) => (i % 2 === 1 ? part : part.replace(/<!--[\s\S]*?-->/g, ""))).join("");
}
