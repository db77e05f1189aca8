import { parseFrontmatter } from "../parse/frontmatter.js";
import { matchesEverything, readGlobList } from "../parse/globs.js";
import { PRIORITIES, type Kind, type Priority, type SourceFile, type Warning } from "../types.js";
import { baseName, type RuleFormat } from "./locate.js";

export interface RuleDoc {
  path: string;
  /** Name used by `--rule NAME` and `@NAME`: the file name without its rule extension. */
  name: string;
  format: RuleFormat;
  anchor: string;
  kind: Kind;
  /** Why an always rule is always (shown by explain). */
  alwaysReason: string | null;
  globs: string[];
  description: string | null;
  priority: Priority | null;
  body: string;
  warnings: Warning[];
}

export function ruleName(path: string): string {
  return baseName(path).replace(/(\.instructions\.md|\.mdc|\.md)$/i, "").replace(/^\./, "");
}

export function parseRule(file: SourceFile, format: RuleFormat, anchor: string): RuleDoc {
  const doc = parseFrontmatter(file.text, file.path);
  const warnings = [...doc.warnings];
  const data = doc.data;
  const warn = (message: string, key?: string) => {
    const line = key !== undefined ? doc.keyLines[key] : undefined;
    warnings.push({ file: file.path, ...(line !== undefined && { line }), message });
  };

  const globs: string[] = [];
  for (const field of ["globs", "paths", "applyTo"]) {
    const list = readGlobList(data[field]);
    if (list.problem) warn(`"${field}": ${list.problem}; the field is ignored`, field);
    globs.push(...list.patterns);
  }

  const description = typeof data.description === "string" && data.description.trim() !== "" ? data.description.trim() : null;
  const alwaysApply = readAlwaysApply(data.alwaysApply, (m) => warn(m, "alwaysApply"));
  const priority = readPriority(data.priority, (m) => warn(m, "priority"));

  let kind: Kind;
  let alwaysReason: string | null = null;
  if (format === "copilot") [kind, alwaysReason] = ["always", "copilot-instructions.md always applies"];
  else if (format === "cursorrules") [kind, alwaysReason] = ["always", "legacy .cursorrules always applies"];
  else if (alwaysApply) [kind, alwaysReason] = ["always", "alwaysApply: true"];
  else if (globs.length > 0 && matchesEverything(globs)) [kind, alwaysReason] = ["always", `glob ${globs.join(", ")} matches every file`];
  else if (globs.length > 0) kind = "auto";
  else if (format === "claude") [kind, alwaysReason] = ["always", ".claude/rules file without paths"];
  else if (description) kind = "agent-requested";
  else kind = "manual";

  return {
    path: file.path,
    name: ruleName(file.path),
    format,
    anchor,
    kind,
    alwaysReason,
    globs,
    description,
    priority,
    body: doc.body.trim(),
    warnings,
  };
}

function readAlwaysApply(value: unknown, warn: (m: string) => void): boolean {
  if (value === undefined || value === null || typeof value === "boolean") return value === true;
  if (typeof value === "string" && /^(true|false)$/i.test(value.trim())) {
    const on = value.trim().toLowerCase() === "true";
    if (on) warn(`"alwaysApply" is the string "${value}"; read as true here, but Cursor treats a string as false — write alwaysApply: true`);
    return on;
  }
  warn(`"alwaysApply": expected true or false, got ${JSON.stringify(value)}; read as false`);
  return false;
}

function readPriority(value: unknown, warn: (m: string) => void): Priority | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "string" && (PRIORITIES as readonly string[]).includes(value.trim().toLowerCase())) {
    return value.trim().toLowerCase() as Priority;
  }
  warn(`"priority": expected one of ${PRIORITIES.join(", ")}, got ${JSON.stringify(value)}; the source's default is used`);
  return null;
}
