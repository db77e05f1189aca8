/**
 * Splits on commas that are not inside `{}`, `[]` or quotes, so `src/{a,b}/*.ts, *.md` gives two patterns.
 * Pieces are trimmed; empty pieces are dropped.
 */
export function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let current = "";
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = "";
      current += ch;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "{" || ch === "[") depth++;
    else if ((ch === "}" || ch === "]") && depth > 0) depth--;
    else if (ch === "," && depth === 0) {
      out.push(current);
      current = "";
      continue;
    }
    current += ch;
  }
  out.push(current);
  return out.map((piece) => piece.trim()).filter((piece) => piece !== "");
}
