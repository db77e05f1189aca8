import type { CountTokens } from "../tokens.js";
import { gateName, namesNeedGate } from "../text-gate.js";
import type { Entry, Format, ImportNode, Omitted } from "../types.js";
import { renderCompact } from "./compact.js";
import type { ContextDocument } from "./document.js";
import { renderJson } from "./json.js";
import { renderMarkdown } from "./markdown.js";
import { renderXml } from "./xml.js";

export type { ContextDocument } from "./document.js";

export function render(format: Format, unnamed: ContextDocument, countTokens: CountTokens): string {
  // Only xml and json print an index item's reason (ctxinject's words around names: "… 120 tokens did not fit"
  // hints at a credential, and the patterns cost a hook ~1 ms the first time).
  const doc = withNamesGated(unnamed, format === "xml" || format === "json");
  switch (format) {
    case "markdown":
      return renderMarkdown(doc);
    case "xml":
      return renderXml(doc);
    case "compact":
      return renderCompact(doc);
    case "json":
      return renderJson(doc, countTokens);
  }
}

/**
 * Every format shows files' names (provenance, index lines, attributes): they pass the gate here, the one place a
 * document becomes text (core/text-gate.ts; the texts passed it in select). The run keeps the raw names as its keys.
 */
function withNamesGated(doc: ContextDocument, reasons: boolean): ContextDocument {
  const names: string[] = [];
  const add = (node: ImportNode) => {
    names.push(node.path);
    node.imports.forEach(add);
  };
  for (const e of doc.entries) {
    names.push(e.source, e.id, e.path ?? "");
    e.imports?.forEach(add);
  }
  for (const o of doc.omitted) names.push(o.source, o.id, o.path ?? "", reasons ? o.reason : "");
  if (!namesNeedGate(names)) return doc;
  const gateImport = (node: ImportNode): ImportNode => ({ path: gateName(node.path), imports: node.imports.map(gateImport) });
  const entry = (e: Entry): Entry => {
    const out: Entry = { ...e, source: gateName(e.source), id: gateName(e.id), path: e.path === null ? null : gateName(e.path) };
    if (e.imports !== undefined) out.imports = e.imports.map(gateImport);
    return out;
  };
  const omitted = (o: Omitted): Omitted => ({
    ...o,
    source: gateName(o.source),
    id: gateName(o.id),
    path: o.path === null ? null : gateName(o.path),
    reason: reasons ? gateName(o.reason) : o.reason,
  });
  return { ...doc, entries: doc.entries.map(entry), omitted: doc.omitted.map(omitted) };
}
