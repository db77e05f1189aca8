import { SEPARATOR } from "../collector.js";
import { flattenImports } from "../parse/imports.js";
import type { CountTokens } from "../tokens.js";
import type { ContextDocument } from "./document.js";

/** DESIGN.md's JSON shape. `merged` is the seed's join of the contents; `tokens` counts it. */
export function renderJson(doc: ContextDocument, countTokens: CountTokens): string {
  const merged = doc.entries.map((e) => e.content).join(SEPARATOR);
  const value = {
    root: doc.root,
    targets: doc.targets,
    tokenizer: doc.tokenizer,
    maxTokens: doc.maxTokens,
    tokens: countTokens(merged),
    entries: doc.entries.map((e) => ({
      source: e.source,
      id: e.id,
      priority: e.priority,
      kind: e.kind,
      path: e.path,
      tokens: e.tokens,
      content: e.content,
      truncated: e.truncated,
      ...(e.globs.length > 0 && { globs: e.globs }),
      ...(e.imports && e.imports.length > 0 && { imports: flattenImports(e.imports) }),
    })),
    omitted: doc.omitted,
    merged,
  };
  return `${JSON.stringify(value, null, 2)}\n`;
}
