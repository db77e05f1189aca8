/**
 * Splits on commas that are not inside `{}`, `[]` or quotes, so `src/{a,b}/*.ts, *.md` gives two patterns.
 * Pieces are trimmed; empty pieces are dropped.
 */
export function splitTopLevel(text: string): string[] {
  // Index loop and slices: a rule's globs are split on every --all for each of thousands of rules, and a string
  // built a character at a time (for-of, +=) cost more than the rest of reading the rule.
  if (!text.includes(",")) {
    const piece = text.trim();
    return piece === "" ? [] : [piece];
  }
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = "";
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "{" || ch === "[") depth++;
    else if ((ch === "}" || ch === "]") && depth > 0) depth--;
    else if (ch === "," && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((piece) => piece.trim()).filter((piece) => piece !== "");
}
