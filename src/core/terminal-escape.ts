/**
 * The one escaper every text passes on its way to a terminal (cli/stdio.ts: stderr always, stdout when it is a
 * terminal). A terminal acts on what it is sent; the gate (core/text-gate.ts) already took every control out of what
 * a repository wrote, and this is the sink's own guarantee for everything else (an error message quoting the
 * operating system, a user's argument). No import: the hook's client bundle holds it.
 *
 * Kept: tab, line feed, a carriage return before a line feed, and ctxinject's own colours (one
 * SGR number: bold, dim and their reset, red, green, yellow, cyan and the colour reset; explain and doctor paint
 * with picocolors on a terminal). Everything else a terminal obeys is shown instead: C0 and C1 controls and DEL as
 * `\xHH` (an ESC sequence's own characters stay as visible text after its `\x1b`), bidirectional embeddings,
 * overrides and isolates as `\uHHHH` (a terminal reorders the line by them), a lone surrogate as U+FFFD.
 */
const OWN_COLOUR = /^\x1b\[(?:1|2|22|3[1236]|39)m/;
const TERMINAL_UNSAFE = /[\0-\x08\x0B-\x1F\x7F-\x9F\u202A-\u202E\u2066-\u2069\uD800-\uDFFF]/;
const TERMINAL_CHAR = /[\0-\x08\x0B-\x1F\x7F-\x9F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF][\uDC00-\uDFFF]?|[\uDC00-\uDFFF]/g;

/** `text` as a terminal may be sent it (idempotent: what it writes it keeps). */
export function escapeTerminal(text: string): string {
  if (!TERMINAL_UNSAFE.test(text)) return text;
  return text.replace(TERMINAL_CHAR, (c: string, at: number) => {
    const code = c.charCodeAt(0);
    if (code >= 0xd800 && code <= 0xdfff) return c.length === 2 ? c : "\uFFFD";
    if (code === 0x0d && text.charCodeAt(at + 1) === 0x0a) return c;
    if (code === 0x1b && OWN_COLOUR.test(text.slice(at, at + 5))) return c;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
