/**
 * `@path` imports in agent files (CLAUDE.md, AGENTS.md, GEMINI.md): Claude Code and Gemini CLI expand them,
 * Codex and opencode do not; ctxinject expands them for every agent. Kiro's steering files reference files as
 * `#[[file:path]]` (a path from the workspace root), which Kiro expands: the same expansion, the same limits.
 * Pure: the caller hands in the files.
 */
import { normalizeText } from "./frontmatter.js";
import { inCode, scanCode } from "./code.js";
import { dirOf } from "../rel-path.js";
import type { ImportNode, SourceFile, Warning } from "../types.js";

export type { ImportNode };

/** How a file names the files it brings in: `@path` (agent files), or Kiro's `#[[file:path]]` (steering files). */
export type ImportSyntax = "at" | "kiro-file";

/** Imports nest at most this deep (Claude Code's own limit). */
export const MAX_IMPORT_DEPTH = 5;

export interface ImportToken {
  /** What follows the `@`, as written. */
  token: string;
  /** Offsets of the whole `@token` in the text. */
  start: number;
  end: number;
}

// `@` not after a word character, `.`, `/` or `@` (e-mail addresses, `a@b`); a path of ordinary characters.
const TOKEN = /(?<![\w.@/`])@((?:\.{1,2}\/|~\/)?[\w.-]+(?:\/[\w.-]+)*)/g;

// `#[[file:path]]`: a path of one line, without brackets.
const KIRO_FILE = /#\[\[file:([^\]\n]+)\]\]/g;

/** The `@path` (or `#[[file:path]]`) tokens outside code spans and fences. Whether each names a file is the caller's question. */
export function importTokens(text: string, syntax: ImportSyntax = "at"): ImportToken[] {
  if (syntax === "kiro-file") return kiroFileTokens(text);
  // Most agent files import nothing: no `@`, no scan of their code.
  if (!text.includes("@")) return [];
  const { ranges } = scanCode(text);
  const out: ImportToken[] = [];
  for (const m of text.matchAll(TOKEN)) {
    let token = m[1]!;
    while (token.endsWith(".")) token = token.slice(0, -1);
    if (token === "" || inCode(ranges, m.index)) continue;
    out.push({ token, start: m.index, end: m.index + 1 + token.length });
  }
  return out;
}

function kiroFileTokens(text: string): ImportToken[] {
  if (!text.includes("#[[file:")) return [];
  const { ranges } = scanCode(text);
  const out: ImportToken[] = [];
  for (const m of text.matchAll(KIRO_FILE)) {
    const token = m[1]!.trim();
    if (token === "" || inCode(ranges, m.index)) continue;
    out.push({ token, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** How a token is written, for warnings. */
export const writtenImport = (token: string, syntax: ImportSyntax = "at"): string => (syntax === "kiro-file" ? `#[[file:${token}]]` : `@${token}`);

/** The root-relative path a token names: `@path` from the importing file's folder, Kiro's from the workspace root. */
export function importTarget(importer: string, token: string, syntax: ImportSyntax = "at"): string | null {
  return resolveImport(syntax === "kiro-file" ? "" : importer, token);
}

/**
 * The root-relative path a token names from the importing file, or null when it cannot be a file of this tree:
 * `~/` (the user's home), an absolute path, or one that climbs out of the root.
 */
export function resolveImport(importer: string, token: string): string | null {
  if (token.startsWith("~/") || token.startsWith("/")) return null;
  const parts = dirOf(importer) === "" ? [] : dirOf(importer).split("/");
  for (const piece of token.split("/")) {
    if (piece === "" || piece === ".") continue;
    if (piece === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(piece);
  }
  return parts.length === 0 ? null : parts.join("/");
}

/** Every root-relative path a text's imports name (existing or not): what io reads next. */
export function importedPaths(file: SourceFile, syntax: ImportSyntax = "at"): string[] {
  const out = new Set<string>();
  for (const { token } of importTokens(normalizeText(file.text), syntax)) {
    const path = importTarget(file.path, token, syntax);
    if (path !== null) out.add(path);
  }
  return [...out];
}

export interface Expanded {
  text: string;
  imports: ImportNode[];
}

/**
 * Replaces each import of a file that is there with that file's text, itself expanded, depth first. A token
 * naming no file stays as written (it may be a mention, `@scope/pkg`); a cycle or a chain deeper than
 * MAX_IMPORT_DEPTH stays as written, with a warning.
 */
export function expandImports(
  text: string,
  path: string,
  files: ReadonlyMap<string, SourceFile>,
  bodyOf: (file: SourceFile) => string,
  warn: (warning: Warning) => void,
  chain: string[] = [path],
  syntax: ImportSyntax = "at",
): Expanded {
  const tokens = importTokens(text, syntax);
  if (tokens.length === 0) return { text, imports: [] };
  const imports: ImportNode[] = [];
  let out = "";
  let at = 0;
  for (const { token, start, end } of tokens) {
    const target = importTarget(path, token, syntax);
    const file = target === null ? undefined : files.get(target);
    if (target === null || file === undefined) continue;
    const line = lineOf(text, start);
    if (chain.includes(target)) {
      warn({ file: path, line, message: `import cycle: ${[...chain, target].join(" → ")}; ${writtenImport(token, syntax)} is left as written` });
      continue;
    }
    if (chain.length > MAX_IMPORT_DEPTH) {
      warn({ file: path, line, message: `imports nest deeper than ${MAX_IMPORT_DEPTH} levels; ${writtenImport(token, syntax)} is left as written` });
      continue;
    }
    const inner = expandImports(bodyOf(file), target, files, bodyOf, warn, [...chain, target], syntax);
    imports.push({ path: target, imports: inner.imports });
    out += text.slice(at, start) + inner.text.trim();
    at = end;
  }
  return { text: out + text.slice(at), imports };
}

/** Every path in an import tree, depth first. */
export function flattenImports(nodes: ImportNode[]): string[] {
  return nodes.flatMap((n) => [n.path, ...flattenImports(n.imports)]);
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}
