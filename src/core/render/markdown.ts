import { SEPARATOR } from "../collector.js";
import { flattenImports } from "../parse/imports.js";
import type { Entry, Omitted } from "../types.js";
import type { ContextDocument } from "./document.js";
import { guardMarkdown, safeId } from "./guard.js";
import { byTier, INDEX_TITLE, LIKELY_TITLE, whyText } from "./tiers.js";

const moreLine = (more: number) => `- … and ${more} more (ctxinject explain lists them)`;

const INDEX_HEADING = `## ${INDEX_TITLE}`;
const LIKELY_HEADING = `## ${LIKELY_TITLE}`;

export function renderMarkdown(doc: ContextDocument): string {
  const parts = doc.entries.map((entry) => {
    const content = guardMarkdown(entry.content);
    return doc.provenance ? `${provenance(entry, doc.all)}\n${content}` : content;
  });
  if (doc.omitted.length > 0 || (doc.omittedMore ?? 0) > 0) parts.push(renderIndex(doc.omitted, doc.omittedMore ?? 0, doc.provenance));
  return parts.length === 0 ? "" : `${parts.join(SEPARATOR)}\n`;
}

/** `<!-- rules-injector: .cursor/rules/ts.mdc (normal) -->`; `--` inside is broken up so the comment cannot end early. */
export function provenance(entry: Entry, all: boolean): string {
  const detail =
    all && entry.kind !== "directory" && entry.kind !== "custom"
      ? `${entry.priority}, ${entry.kind}${entry.globs.length > 0 ? `: ${entry.globs.join(", ")}` : ""}`
      : entry.priority;
  const imports = entry.imports && entry.imports.length > 0 ? ` imports ${flattenImports(entry.imports).map(safeId).join(", ")}` : "";
  return `<!-- ${safeComment(`${safeId(entry.source)}: ${safeId(entry.id)} (${detail})${imports}`)} -->`;
}

function safeComment(text: string): string {
  const safe = text.replaceAll("--", "- -");
  return safe.endsWith("-") ? `${safe} ` : safe;
}

function renderIndex(omitted: Omitted[], more: number, withComment: boolean): string {
  const line = (o: Omitted) => {
    const about = o.description ? `: ${o.description}` : "";
    return `- \`${safeId(o.path ?? o.id)}\` (${o.tokens} tokens)${about.replace(/\s+/g, " ")}${whyText(o)}`;
  };
  const { likely, plain } = byTier(omitted);
  const lines = plain.map(line);
  if (more > 0) lines.push(moreLine(more));
  const head = withComment ? "<!-- ctxinject: index -->\n" : "";
  const first = likely.length > 0 ? `${LIKELY_HEADING}\n\n${likely.map(line).join("\n")}${lines.length > 0 ? "\n\n" : ""}` : "";
  return `${head}${first}${lines.length > 0 ? `${INDEX_HEADING}\n\n${lines.join("\n")}` : ""}`;
}
