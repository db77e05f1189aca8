/**
 * What a session keeps through a compaction: the instructions that were in force, as a short list the agent can
 * read from, with critical ones in full — within a budget much smaller than a prompt's, so that the constraints
 * stay without every text coming back at once. Pure: the caller says what was injected and gives the texts.
 */
import { gateName } from "../text-gate.js";

export interface DigestItem {
  /** Root-relative path, or `source:id` for entries that are no file. */
  name: string;
  priority: string | null;
  /** The text, for critical items (given in full while the budget lasts). */
  content?: string;
}

const HEADING = "## Instructions in force before this conversation was compacted";
const NOTE = "Read a file again before you change code it governs; its full text comes back when you touch what it covers.";

/** The digest in at most `maxChars` characters; "" when there is nothing to keep. */
export function renderDigest(named: DigestItem[], maxChars: number): string {
  if (named.length === 0) return "";
  // Files' names pass the gate (core/text-gate.ts) as in every other format; the texts passed it in select.
  const items = named.map((i) => ({ ...i, name: gateName(i.name) }));
  const critical = items.filter((i) => i.priority === "critical" && i.content !== undefined);
  const others = items.filter((i) => !critical.includes(i));
  let out = `${HEADING}\n\n${NOTE}\n`;
  const fits = (more: string) => out.length + more.length <= maxChars;
  for (const item of critical) {
    const block = `\n### ${item.name} (critical)\n\n${item.content!.trim()}\n`;
    if (fits(block)) out += block;
    else others.unshift(item);
  }
  const listed: string[] = [];
  // Room is kept for the line that says how many were left out.
  const reserve = `- … and ${others.length} more\n`.length;
  for (const [i, item] of others.entries()) {
    const line = `- ${item.name}${item.priority && item.priority !== "normal" ? ` (${item.priority})` : ""}\n`;
    const last = i === others.length - 1;
    if (!fits(`\n${listed.join("")}${line}${last ? "" : " ".repeat(reserve)}`)) {
      listed.push(`- … and ${others.length - i} more\n`);
      break;
    }
    listed.push(line);
  }
  if (listed.length > 0) out += `\n${listed.join("")}`;
  return out.length <= maxChars ? out.trimEnd() : out.slice(0, maxChars);
}
