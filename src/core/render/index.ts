import type { CountTokens } from "../tokens.js";
import type { Format } from "../types.js";
import { renderCompact } from "./compact.js";
import type { ContextDocument } from "./document.js";
import { renderJson } from "./json.js";
import { renderMarkdown } from "./markdown.js";
import { renderXml } from "./xml.js";

export type { ContextDocument } from "./document.js";

export function render(format: Format, doc: ContextDocument, countTokens: CountTokens): string {
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
