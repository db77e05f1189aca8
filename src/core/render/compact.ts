import { inCode, scanCode } from "../parse/code.js";
import type { Omitted } from "../types.js";
import type { ContextDocument } from "./document.js";
import { guardCompact, safeId, withFenceClosed } from "./guard.js";
import { byTier, LIKELY_TITLE, whyText } from "./tiers.js";

/**
 * Fewest tokens, same information: a header line per entry, then the content with HTML comments,
 * horizontal rules, badge lines and blank lines removed and runs of spaces collapsed — never inside code fences.
 */
export function renderCompact(doc: ContextDocument): string {
  const blocks = doc.entries.map((e) =>
    `## ${safeId(e.id)} [${safeId(e.source)} ${e.priority}]\n${guardCompact(withFenceClosed(compactText(e.content)))}`.trimEnd(),
  );
  const more = doc.omittedMore ?? 0;
  if (doc.omitted.length > 0 || more > 0) {
    // An index line is one line: every run of whitespace goes to one space, inside a code span too (a span's
    // line break would start a line of its own, shaped like an entry's header).
    const item = (o: Omitted) => `${safeId(o.path ?? o.id)} (${o.tokens}t)${o.description ? `: ${o.description.replace(/\s+/g, " ")}` : ""}${whyText(o)}`;
    const { likely, plain } = byTier(doc.omitted);
    if (likely.length > 0) blocks.push(`## ${LIKELY_TITLE}\n${likely.map(item).join("\n")}`);
    const items = plain.map(item);
    if (more > 0) items.push(`+${more} more (ctxinject explain)`);
    if (items.length > 0) blocks.push(`## index: read on demand\n${items.join("\n")}`);
  }
  return blocks.length === 0 ? "" : `${blocks.join("\n")}\n`;
}

export function compactText(text: string): string {
  const out: string[] = [];
  for (const line of scanCode(withoutComments(text)).lines) {
    if (line.fence === "inside" || line.fence === "close") {
      out.push(line.text.trimEnd());
      continue;
    }
    if (line.fence === "open") {
      out.push(line.text.trim());
      continue;
    }
    const trimmed = line.text.trim();
    if (trimmed === "") continue;
    if (/^([-*_])(\s*\1){2,}$/.test(trimmed)) continue;
    if (/^(\[?!\[[^\]]*\]\([^)]*\)\]?(\([^)]*\))?\s*)+$/.test(trimmed)) continue;
    const indent = /^\s*/.exec(line.text)?.[0].length ?? 0;
    out.push(" ".repeat(Math.min(indent, 4)) + collapse(trimmed));
  }
  return out.join("\n");
}

function collapse(text: string): string {
  // Inline code keeps its spacing; everything else collapses to single spaces.
  const { ranges } = scanCode(text);
  let out = "";
  let at = 0;
  for (const [s, e] of ranges) {
    out += text.slice(at, s).replace(/\s+/g, " ") + text.slice(s, e);
    at = e;
  }
  return out + text.slice(at).replace(/\s+/g, " ");
}

/** HTML comments are dropped, except in code, where they are text. */
function withoutComments(text: string): string {
  const { ranges } = scanCode(text);
  return text.replace(/<!--[\s\S]*?-->/g, (comment, at: number) => (inCode(ranges, at) ? comment : ""));
}
