import { GLOB_FIELDS, type Warning } from "../types.js";
import { splitTopLevel } from "./split.js";

/**
 * Reads `key: value` frontmatter line by line when strict YAML refuses it (Cursor writes `globs: *.ts,*.tsx`,
 * which YAML takes for an alias). Understands scalars, quoted strings, booleans, inline `[a, b]` lists,
 * block `- item` lists and `|`/`>` block scalars; a line it cannot read becomes a warning and the other
 * fields survive.
 */
export function readLenientYaml(raw: string, firstLine: number): { data: Record<string, unknown>; warnings: Omit<Warning, "file">[] } {
  const data: Record<string, unknown> = {};
  const warnings: Omit<Warning, "file">[] = [];
  const lines = raw.split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    const lineNo = firstLine + i;
    i++;
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const m = /^([A-Za-z_][\w.-]*)\s*:(?:\s+(.*)|\s*)$/.exec(line);
    if (!m) {
      warnings.push({ line: lineNo, message: `cannot read frontmatter line "${line.trim()}"`, kind: "frontmatter-yaml" });
      continue;
    }
    const key = m[1]!;
    const value = (m[2] ?? "").trim();
    if (value === "") {
      const items: string[] = [];
      while (i < lines.length && /^\s*-(\s|$)/.test(lines[i] ?? "")) {
        items.push(scalar((lines[i] ?? "").replace(/^\s*-\s?/, "").trim()) as string);
        i++;
      }
      data[key] = items.length > 0 ? items.map(String) : null;
      continue;
    }
    if (/^[|>][+-]?$/.test(value)) {
      const block: string[] = [];
      while (i < lines.length && (/^\s+\S/.test(lines[i] ?? "") || (lines[i] ?? "").trim() === "")) {
        block.push((lines[i] ?? "").trim());
        i++;
      }
      data[key] = value.startsWith("|") ? block.join("\n").trim() : block.filter(Boolean).join(" ");
      continue;
    }
    if (value.startsWith("[") && !value.endsWith("]")) {
      const warning: Omit<Warning, "file"> = { line: lineNo, message: `"${key}": a list opened with [ is never closed; read as a list` };
      if (GLOB_FIELDS.has(key)) warning.kind = "bad-glob-field";
      warnings.push(warning);
      data[key] = scalar(`${value}]`);
      continue;
    }
    data[key] = scalar(value);
  }
  return { data, warnings };
}

function scalar(value: string): unknown {
  if (value.length >= 2 && ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")))) {
    return value.slice(1, -1);
  }
  if (value.startsWith("[") && value.endsWith("]")) {
    return splitTopLevel(value.slice(1, -1)).map((item) => String(scalar(item)));
  }
  if (/^(true|false)$/i.test(value)) return value.toLowerCase() === "true";
  if (/^(null|~)$/.test(value)) return null;
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}
