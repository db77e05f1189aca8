import type { Entry, Omitted } from "../types.js";
import type { ContextDocument } from "./document.js";
import { LIKELY_TITLE } from "./tiers.js";

/**
 * One `<entry>` per entry whose text is exactly the content: nothing added inside the element, so a
 * parser gives back the content byte for byte. `\r` is written as a character reference because parsers
 * normalise raw CR; content with characters XML 1.0 cannot carry at all (most C0 controls, lone
 * surrogates) is written as a JSON string literal with `encoding="json"`.
 */
export function renderXml(doc: ContextDocument): string {
  const lines = ["<context>"];
  for (const entry of doc.entries) lines.push(renderEntry(entry));
  const more = doc.omittedMore ?? 0;
  const moreAttr = more > 0 ? ` more="${more}"` : "";
  if (doc.omitted.length === 0) lines.push(`<omitted${moreAttr}/>`);
  else {
    lines.push(`<omitted${moreAttr}>`);
    for (const o of doc.omitted) lines.push(renderOmitted(o));
    lines.push("</omitted>");
  }
  lines.push("</context>");
  return `${lines.join("\n")}\n`;
}

function renderEntry(entry: Entry): string {
  const attrs = attributes({
    source: entry.source,
    id: entry.id,
    priority: entry.priority,
    kind: entry.kind,
    path: entry.path,
    tokens: String(entry.tokens),
    truncated: entry.truncated ? "true" : null,
  });
  if (NOT_XML_CHAR.test(entry.content)) {
    return `<entry${attrs} encoding="json">${escapeText(xmlJson(entry.content))}</entry>`;
  }
  return `<entry${attrs}>${escapeText(entry.content)}</entry>`;
}

function renderOmitted(o: Omitted): string {
  // The likely tier says so in its own attribute, with the tier's words, so every format tells the agent the same.
  const likely: Record<string, string | null> = o.tier === "likely" ? { tier: "likely", read: LIKELY_TITLE, why: o.why ?? null } : {};
  const attrs = attributes({ source: o.source, id: o.id, priority: o.priority, path: o.path, tokens: String(o.tokens), reason: o.reason, ...likely });
  const text = o.description ?? "";
  return NOT_XML_CHAR.test(text) ? `<item${attrs} encoding="json">${escapeText(xmlJson(text))}</item>` : `<item${attrs}>${escapeText(text)}</item>`;
}

// Characters outside XML 1.0's Char production (tab, LF, CR and the rest are fine).
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A JSON string literal XML can carry: JSON leaves U+FFFE and U+FFFF as they are, XML 1.0 refuses them. */
function xmlJson(text: string): string {
  return JSON.stringify(text).replace(/[\uFFFE\uFFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/** Attribute values XML cannot hold are JSON strings, and `escaped` lists which, so a reader can undo it. */
function attributes(values: Record<string, string | null>): string {
  let out = "";
  const escaped: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (value === null) continue;
    const needsJson = NOT_XML_CHAR.test(value);
    if (needsJson) escaped.push(name);
    out += ` ${name}="${escapeAttribute(needsJson ? xmlJson(value) : value)}"`;
  }
  return escaped.length > 0 ? `${out} escaped="${escaped.join(" ")}"` : out;
}

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#13;");
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, "&quot;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;");
}
