/**
 * What the gate (core/text-gate.ts) takes out of what no file's text holds — files' names and a config's keyword
 * texts — and the HTML comments a rendered view hides from a reviewer; and every finding itself through the gate,
 * since a finding names files and quotes them.
 */
import type { Config } from "../config.js";
import { describeHidden } from "../hidden.js";
import { lineCounter } from "../line-counter.js";
import { inCode, scanCode } from "../parse/code.js";
import { describeGatedName, gateName, gateNameFound, gateText, namesNeedGate } from "../text-gate.js";
import type { SourceFile } from "../types.js";
import type { Finding } from "./finding.js";

/** Names holding hidden characters or a credential: each is shown without them everywhere, and named here. */
export function nameChecks(files: readonly SourceFile[], agentOf: (path: string) => string): Finding[] {
  if (!namesNeedGate(files.map((f) => f.path))) return [];
  const findings: Finding[] = [];
  for (const file of files) {
    const gated = gateNameFound(file.path);
    if (gated.hidden === null && gated.redactions.length === 0) continue;
    const kind = gated.hidden !== null ? "hidden-name" : "secret";
    findings.push({
      severity: "error",
      kind,
      agent: agentOf(file.path),
      file: file.path,
      message: `its path holds ${describeGatedName(gated)}: ctxinject shows it without them, every agent that lists the folder reads the name as it is (rename it)`,
    });
  }
  return findings;
}

/** A config's own keyword texts go into every prompt whose words fire the mode: checked as a file's text is. */
export function keywordChecks(config: Config, files: Readonly<Record<string, string>>): Finding[] {
  const findings: Finding[] = [];
  for (const [mode, settings] of Object.entries(config.keywords)) {
    if (settings.content === undefined) continue;
    const file = files[mode] ?? "config";
    const gated = gateText(settings.content);
    const where = `keywords.${mode}.content`;
    if (gated.hidden !== null) {
      findings.push({
        severity: gated.hidden.stray ? "warning" : "error",
        kind: "hidden-characters",
        agent: "ctxinject",
        file,
        message: `${where}: ${describeHidden(gated.hidden)}: text a reviewer cannot see, which a model reads; ctxinject removes it from what it prints`,
      });
    }
    for (const r of gated.redactions) {
      findings.push({
        severity: r.weak ? "warning" : "error",
        kind: "secret",
        agent: "ctxinject",
        file,
        message: `${where}: a credential (${r.kind}) in a keyword mode's text: ctxinject redacts it, but the config holds it`,
      });
    }
  }
  return findings;
}

/** Words a tool's directive is made of: `<!-- prettier-ignore -->`, `<!-- markdownlint-disable MD033 -->`. */
const DIRECTIVE =
  /^\s*(?:prettier|markdownlint|eslint|cspell|textlint|vale|toc|omit|region|endregion|ALL-CONTRIBUTORS|BEGIN|END|START|STOP|@?[\w.-]+:(?:start|end)\b)/i;
/** Four words of prose: what an instruction is made of (`ignore the rules above`), no tool's directive. */
const PROSE_WORDS = 4;

/**
 * HTML comments holding prose outside code: a rendered view (GitHub, an editor's preview) hides them from the person
 * reviewing the file, and every agent that loads the file reads them. ctxinject sends the file as it is written
 * (comments are the file's own, and `compact` drops them); the reviewer is told here, with the line. `tag` is asked
 * on the first finding only, as textChecks asks it.
 */
export function commentChecks(file: SourceFile, tag: () => string): Finding[] {
  if (!file.text.includes("<!--")) return [];
  let agent: string | undefined;
  const text = file.text;
  const { ranges } = scanCode(text);
  const findings: Finding[] = [];
  // indexOf, not a lazy pattern: an unclosed `<!--` repeated would make the pattern rescan to the end each time.
  const lineAt = lineCounter(text);
  for (let at = text.indexOf("<!--"); at !== -1; ) {
    const end = text.indexOf("-->", at + 4);
    if (end === -1) break;
    const body = text.slice(at + 4, end);
    const next = text.indexOf("<!--", end + 3);
    if (inCode(ranges, at) || DIRECTIVE.test(body)) {
      at = next;
      continue;
    }
    const words = body.match(/\p{L}{2,}/gu)?.length ?? 0;
    const line = lineAt(at);
    at = next;
    if (words < PROSE_WORDS) continue;
    findings.push({
      severity: "warning",
      kind: "html-comment",
      agent: (agent ??= tag()),
      file: file.path,
      line,
      message: `an HTML comment holding ${words} words of text: a rendered view hides it from a reviewer, a model reads it (make it visible, or delete it)`,
    });
  }
  return findings;
}

/** Findings name files and quote config keys: each leaves through the gate, checked together first. */
export function gateFindings(findings: Finding[]): Finding[] {
  if (!namesNeedGate(findings.flatMap((f) => [f.file, f.message]))) return findings;
  return findings.map((f) => ({ ...f, file: gateName(f.file), message: gateName(f.message) }));
}
