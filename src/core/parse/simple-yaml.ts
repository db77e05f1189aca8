/**
 * The frontmatter nearly every rule has — a few `key: value` lines, maybe a `- item` list — read without
 * loading a YAML parser (js-yaml costs ~25 ms of start-up, on every prompt). Returns null for anything outside
 * a subset where YAML's answer is certain, and the caller asks YAML then. Inside the subset the answer is the
 * one strict YAML gives (a test compares them).
 */
type SimpleYaml = { data: Record<string, unknown> } | { aliasLine: number };

export function readSimpleYaml(raw: string): SimpleYaml | null {
  const data: Record<string, unknown> = {};
  const lines = raw.split("\n");
  let listKey: string | null = null;
  let aliasLine: number | null = null;
  const anchors = /(^|\s)&\S/.test(raw);
  const blockKeys = new Set<string>();
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") {
      listKey = null;
      continue;
    }
    if (line.includes("\t")) return null;
    const item = /^ +- (.*)$/.exec(line);
    if (item) {
      if (listKey === null) return null;
      const value = scalar(item[1]!);
      if (value === ALIAS && !anchors) aliasLine ??= index;
      else if (value === undefined || value === ALIAS) return null;
      (data[listKey] as unknown[]).push(value);
      continue;
    }
    const field = /^([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$/.exec(line);
    if (!field) return null;
    const key = field[1]!;
    if (key in data) return null; // YAML refuses duplicate keys; let it say so
    const text = (field[2] ?? "").trim();
    if (text === "") {
      data[key] = [];
      blockKeys.add(key);
      listKey = key;
      continue;
    }
    listKey = null;
    const value = scalar(text);
    if (value === ALIAS && !anchors) aliasLine ??= index;
    else if (value === undefined || value === ALIAS) return null;
    data[key] = value;
  }
  // Cursor writes `globs: *.ts,*.tsx`: to YAML an alias to an anchor that does not exist, a certain error.
  if (aliasLine !== null) return { aliasLine };
  // A key with nothing under it is null in YAML, not an empty list.
  for (const key of blockKeys) if ((data[key] as unknown[]).length === 0) data[key] = null;
  return { data };
}

const ALIAS = Symbol("alias");

/** A scalar whose YAML meaning is certain, or undefined when YAML must decide. */
function scalar(text: string): unknown {
  if (text.startsWith("*")) return ALIAS;
  if (text.startsWith("[")) return flowSequence(text);
  if (/^"[^"\\]*"$/.test(text)) return text.slice(1, -1);
  if (/^'[^']*'$/.test(text)) return text.slice(1, -1);
  if (text === "true") return true;
  if (text === "false") return false;
  if (/^(0|[1-9]\d{0,14})$/.test(text)) return Number(text);
  // Plain strings only when nothing in them means something else to YAML: no indicator first, no ": " or
  // " #" inside, nothing a resolver could take for null, a boolean, a number or a date.
  if (/^[-?:,[\]{}#&*!|>'"%@`\s]/.test(text) || /: |:$| #/.test(text) || /\s$/.test(text)) return undefined;
  if (/^[+.\d]/.test(text) || /^(null|~|true|false|yes|no|on|off|y|n)$/i.test(text)) return undefined;
  return text;
}

/** `["a", 'b', c]`: a one-line flow list of quoted or plain items, nothing nested. */
function flowSequence(text: string): unknown {
  if (!text.endsWith("]")) return undefined;
  const inner = text.slice(1, -1);
  if (inner.trim() === "") return [];
  const items: string[] = [];
  let consumed = 0;
  // Sticky: each match starts where the last ended, so anything unexpected stops the walk short.
  for (const m of inner.matchAll(/\s*("[^"\\]*"|'[^']*'|[^,"'[\]{}]+?)\s*(?:,|$)/gy)) {
    const item = m[1]!;
    if (item.startsWith("*")) return ALIAS;
    const value = item.startsWith('"') || item.startsWith("'") ? item.slice(1, -1) : scalar(item);
    if (typeof value !== "string") return undefined;
    items.push(value);
    consumed = (m.index ?? 0) + m[0].length;
  }
  return consumed === inner.length ? items : undefined;
}
