/**
 * `@path` imports in agent files (CLAUDE.md, AGENTS.md, GEMINI.md): Claude Code and Gemini CLI expand them,
 * Codex and opencode do not; ctxinject expands them for every agent. Kiro's steering files reference files as
 * `#[[file:path]]` (a path from the workspace root), which Kiro expands: the same expansion, the same limits.
 * Pure: the caller hands in the files.
 */
import { normalizeText } from "./frontmatter.js";
import { inCode, scanCode } from "./code.js";
import { dirOf } from "../rel-path.js";
import { lineCounter } from "../line-counter.js";
import type { ImportNode, SourceFile, Warning } from "../types.js";

export type { ImportNode };

/** How a file names the files it brings in: `@path` (agent files), or Kiro's `#[[file:path]]` (steering files). */
export type ImportSyntax = "at" | "kiro-file";

/** Imports nest at most this deep (Claude Code's own limit). */
export const MAX_IMPORT_DEPTH = 5;

interface ImportToken {
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
function importTarget(importer: string, token: string, syntax: ImportSyntax = "at"): string | null {
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

/** A path a text's imports name, as first written there. */
interface ImportRef {
  path: string;
  token: string;
  /** 1-based line of the token in the file's text. */
  line: number;
}

/** Every root-relative path a text's imports name (existing or not), once each: what io reads next. */
export function importRefs(file: SourceFile, syntax: ImportSyntax = "at"): ImportRef[] {
  const text = normalizeText(file.text);
  const lineOf = lineCounter(text);
  const out = new Map<string, ImportRef>();
  for (const { token, start } of importTokens(text, syntax)) {
    const path = importTarget(file.path, token, syntax);
    if (path !== null && !out.has(path)) out.set(path, { path, token, line: lineOf(start) });
  }
  return [...out.values()];
}

/**
 * Where an import never leads, whatever the repository writes: git's own folder (`@.git/config`) and installed
 * packages. io adds the files git ignores (`@.env`): neither Claude Code's users nor the other agents' expect a secret
 * kept out of git to be sent, and Codex never reads it by itself.
 */
export function forbiddenImport(path: string): string | null {
  const segments = path.split("/");
  if (segments.includes(".git")) return "it is inside .git";
  if (segments.includes("node_modules")) return "it is inside node_modules";
  return null;
}

/**
 * What one text's expansion may add, counted before each import is expanded: six files importing the next sixteen
 * times each made a text of gigabytes (a crash) before the entry's cap cut it to MAX_ENTRY_CHARS.
 */
export const MAX_IMPORTED_CHARS = 100_000;
const MAX_IMPORTS = 200;

/** What is left of one top-level expansion's limits, shared by its nested calls. */
interface Allowance {
  chars: number;
  imports: number;
  /** Said once per expansion: the first import left out names the file, the rest are like it. */
  warned: boolean;
  /** Warnings given: a file imported sixteen times says its cycle or depth once, not sixteen times. */
  said: Set<string>;
  /** Each imported file's body and tokens, worked out once however often it is imported. */
  tokensOf: Map<string, { body: string; tokens: ImportToken[] }>;
}

interface Expanded {
  text: string;
  imports: ImportNode[];
}

/**
 * Replaces each import of a file that is there with that file's text, itself expanded, depth first. A token
 * naming no file stays as written (it may be a mention, `@scope/pkg`); a cycle or a chain deeper than
 * MAX_IMPORT_DEPTH stays as written, with a warning. So does an import past MAX_IMPORTS or past MAX_IMPORTED_CHARS
 * of imported text (each file's body counted before it is expanded), with one warning naming the file.
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
  const allowance: Allowance = { chars: MAX_IMPORTED_CHARS, imports: MAX_IMPORTS, warned: false, said: new Set(), tokensOf: new Map() };
  return expandWithin(text, importTokens(text, syntax), path, files, bodyOf, warn, chain, syntax, allowance);
}

function expandWithin(
  text: string,
  tokens: readonly ImportToken[],
  path: string,
  files: ReadonlyMap<string, SourceFile>,
  bodyOf: (file: SourceFile) => string,
  warn: (warning: Warning) => void,
  chain: string[],
  syntax: ImportSyntax,
  allowance: Allowance,
): Expanded {
  if (tokens.length === 0) return { text, imports: [] };
  const imports: ImportNode[] = [];
  const lineOf = lineCounter(text);
  const once = (warning: Warning) => {
    const key = `${warning.file}:${warning.line}:${warning.message}`;
    if (allowance.said.has(key)) return;
    allowance.said.add(key);
    warn(warning);
  };
  let out = "";
  let at = 0;
  for (const { token, start, end } of tokens) {
    const target = importTarget(path, token, syntax);
    const file = target === null ? undefined : files.get(target);
    if (target === null || file === undefined) continue;
    const written = writtenImport(token, syntax);
    if (chain.includes(target)) {
      once({
        file: path,
        line: lineOf(start),
        message: `import cycle: ${[...chain, target].join(" → ")}; ${written} is left as written`,
        kind: "import-cycle",
      });
      continue;
    }
    if (chain.length > MAX_IMPORT_DEPTH) {
      once({
        file: path,
        line: lineOf(start),
        message: `imports nest deeper than ${MAX_IMPORT_DEPTH} levels; ${written} is left as written`,
        kind: "import-depth",
      });
      continue;
    }
    let parsed = allowance.tokensOf.get(target);
    if (parsed === undefined) {
      const body = bodyOf(file);
      parsed = { body, tokens: importTokens(body, syntax) };
      allowance.tokensOf.set(target, parsed);
    }
    if (allowance.imports === 0 || parsed.body.length > allowance.chars) {
      if (!allowance.warned) {
        const limit = allowance.imports === 0 ? `${MAX_IMPORTS} imports` : `${MAX_IMPORTED_CHARS} characters of imported text`;
        warn({ file: path, line: lineOf(start), message: `imports add more than ${limit}; ${written} and any later past the limit are left as written` });
        allowance.warned = true;
      }
      continue;
    }
    allowance.imports--;
    allowance.chars -= parsed.body.length;
    const inner = expandWithin(parsed.body, parsed.tokens, target, files, bodyOf, warn, [...chain, target], syntax, allowance);
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
