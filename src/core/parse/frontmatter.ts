import { describeHidden } from "../hidden.js";
import { gateText, type GateOptions } from "../text-gate.js";
import type { Warning } from "../types.js";
import { readLenientYaml } from "./lenient-yaml.js";
import { loadSafeYaml } from "./safe-yaml.js";
import { readSimpleYaml } from "./simple-yaml.js";
import type { RunMemo } from "../run-memo.js";
import type { BlockReading } from "../warm.js";

export interface ParsedDocument {
  data: Record<string, unknown>;
  /** Text after the frontmatter block, LF line endings, no BOM. */
  body: string;
  hasFrontmatter: boolean;
  warnings: Warning[];
  /** File line of a top-level key, for warnings about a field (worked out when a warning asks). */
  lineOf(key: string): number | undefined;
}

export function normalizeText(text: string): string {
  // Most files have neither: a native scan for each is cheaper than running the regexps over every file of --all.
  const bomless = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return bomless.includes("\r") ? bomless.replace(/\r\n?/g, "\n") : bomless;
}

/**
 * `memo`: the run's, where an earlier run's reading of the same block is reused (core/warm.ts). `gate`: the text
 * gate's switches from the user's config (`redact: false`, `hiddenCharacters: keep`), for what a quoted string's
 * escapes spell.
 */
export function parseFrontmatter(text: string, file: string, memo?: RunMemo, gate?: Pick<GateOptions, "redact" | "strip">): ParsedDocument {
  const normalized = normalizeText(text);
  // Line by line from the start, never splitting the whole file: most files (every README) have no frontmatter,
  // and --all reads thousands of them.
  const lineAt = (start: number): { line: string; next: number } => {
    const end = normalized.indexOf("\n", start);
    return end === -1 ? { line: normalized.slice(start), next: -1 } : { line: normalized.slice(start, end), next: end + 1 };
  };
  const first = lineAt(0);
  if (first.line.trimEnd() !== "---") {
    return { data: {}, body: normalized, hasFrontmatter: false, warnings: [], lineOf: noLine };
  }
  let closeStart = -1;
  let afterClose = -1;
  for (let at = first.next; at !== -1; ) {
    const { line, next } = lineAt(at);
    const fence = line.trimEnd();
    if (fence === "---" || fence === "...") {
      closeStart = at;
      afterClose = next;
      break;
    }
    at = next;
  }
  if (closeStart === -1) {
    return {
      data: {},
      body: normalized,
      hasFrontmatter: false,
      warnings: [{ file, line: 1, message: "frontmatter opened with --- is never closed; the whole file is read as text", kind: "frontmatter-unclosed" }],
      lineOf: noLine,
    };
  }
  const raw = normalized.slice(first.next, Math.max(first.next, closeStart - 1));
  const body = afterClose === -1 ? "" : normalized.slice(afterClose);
  // The same block always reads the same: an earlier run's reading of it is reused (core/warm.ts). The saved readings
  // are gated ones: a block with escapes read with a switch of the gate off (`redact: false`, `hiddenCharacters:
  // keep`) is neither saved nor reused.
  const switches = { redact: gate?.redact !== false, strip: gate?.strip !== false };
  const gated = switches.redact && switches.strip;
  const read =
    memo && (gated || !raw.includes("\\")) ? memo.warm.frontmatter(raw, () => readBlock(raw, { redact: true, strip: true })) : readBlock(raw, switches);
  return {
    data: read.data,
    body,
    hasFrontmatter: true,
    warnings: read.warnings.map((w) => ({ file, ...w })),
    lineOf: (key) => keyLine(raw, key),
  };
}

/**
 * The fields of a frontmatter block, with what was wrong in it (lines are the file's: the block starts at 2). The
 * file's text passed the gate before it was parsed, but a quoted YAML string's escapes (`"\e[2J"`, `"\u200B"`)
 * spell characters the text did not hold: a block with a backslash has its strings gated once more.
 */
function readBlock(raw: string, switches: { redact: boolean; strip: boolean }): BlockReading {
  const reading = readFields(raw);
  return raw.includes("\\") ? withEscapesGated(reading, raw, switches) : reading;
}

function withEscapesGated(reading: BlockReading, raw: string, switches: { redact: boolean; strip: boolean }): BlockReading {
  const warnings = [...reading.warnings];
  const gate = (value: unknown, key: string): unknown => {
    if (typeof value === "string") {
      // The file's text passed the gate before it was parsed; what its escapes spell is seen only now, so it passes
      // the gate here, with the same switches.
      const gated = gateText(value, switches);
      if (gated.hidden !== null)
        warnings.push({
          line: keyLine(raw, key) ?? 2,
          message: `"${key}": its escapes spell ${describeHidden(gated.hidden)}; removed`,
          kind: "hidden-characters",
        });
      if (gated.redactions.length > 0) {
        const kinds = [...new Set(gated.redactions.map((r) => r.kind))].join(", ");
        warnings.push({ line: keyLine(raw, key) ?? 2, message: `"${key}": its escapes spell a credential (${kinds}); redacted`, kind: "secret" });
      }
      return gated.text;
    }
    if (Array.isArray(value)) return value.map((v) => gate(v, key));
    if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, gate(v, key)]));
    return value;
  };
  const data = Object.fromEntries(Object.entries(reading.data).map(([key, value]) => [key, gate(value, key)]));
  return { data, warnings };
}

function readFields(raw: string): BlockReading {
  const warnings: BlockReading["warnings"] = [];
  if (raw.trim() === "") return { data: {}, warnings };
  const simple = readSimpleYaml(raw);
  if (simple !== null && "data" in simple) return { data: simple.data, warnings };
  if (simple !== null) {
    warnings.push({
      line: simple.aliasLine + 2,
      message: "frontmatter is not strict YAML (an unquoted value starting with * is a YAML alias); read it line by line",
      kind: "unquoted-glob",
    });
    return { data: lenientData(raw, warnings), warnings };
  }
  try {
    const parsed = loadSafeYaml()(raw);
    if (parsed === null || parsed === undefined) return { data: {}, warnings };
    if (typeof parsed === "object" && !Array.isArray(parsed)) return { data: parsed as Record<string, unknown>, warnings };
    warnings.push({ line: 2, message: "frontmatter is not a list of key: value fields; read it line by line" });
  } catch (error) {
    const err = error as { mark?: { line?: number }; reason?: string; message?: string };
    const line = typeof err.mark?.line === "number" ? err.mark.line + 2 : 2;
    warnings.push({
      line,
      message: `frontmatter is not strict YAML (${err.reason ?? err.message ?? "parse error"}); read it line by line`,
      kind: "frontmatter-yaml",
    });
  }
  return { data: lenientData(raw, warnings), warnings };
}

const noLine = (): undefined => undefined;

/** The file line (the frontmatter starts at line 2) where `key` is first set. */
function keyLine(raw: string, key: string): number | undefined {
  // Line by line in place: every rule with globs asks, and its block is a handful of lines.
  for (let at = 0, line = 2; ; line++) {
    if (raw.startsWith(key, at)) {
      let i = at + key.length;
      while (raw[i] === " " || raw[i] === "\t") i++;
      if (raw[i] === ":") return line;
    }
    const end = raw.indexOf("\n", at);
    if (end === -1) return undefined;
    at = end + 1;
  }
}

function lenientData(raw: string, warnings: BlockReading["warnings"]): Record<string, unknown> {
  const lenient = readLenientYaml(raw, 2);
  warnings.push(...lenient.warnings);
  return lenient.data;
}

/** Strict YAML alone, for the test that holds the fast path to YAML's answers. */
export function parseStrictYaml(raw: string): unknown {
  return loadSafeYaml()(raw);
}
