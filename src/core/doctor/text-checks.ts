/** Checks of a file's text, whatever kind of instruction file it is. */
import { describeHidden, stripHidden, type HiddenCharacters } from "../hidden.js";
import { redactSecrets, type TestedText } from "../redact.js";
import type { SourceFile } from "../types.js";
import type { Finding } from "./finding.js";

/** Cursor's guidance: keep a rule under 500 lines (longer ones are followed less reliably). */
const LONG_RULE_LINES = 500;

/**
 * `tag` is the file's tag (readers.ts): the agents that read it by themselves, or `ctxinject`; as a function, asked
 * on the first finding only (it asks every agent's loader, and most files have none). Errors are for what hides
 * instructions or sends a credential: a stray zero-width space in prose and an example's placeholder credential are
 * warnings.
 */
export function textChecks(file: SourceFile, isRule: boolean, tag: string | (() => string), tested?: ReadonlyMap<string, TestedText>): Finding[] {
  const findings: Finding[] = [];
  let known = typeof tag === "string" ? tag : undefined;
  const agentOf = () => (known ??= (tag as () => string)());
  const hidden = stripHidden(file.text);
  if (hidden !== null) {
    const { found } = hidden;
    const agent = agentOf();
    const passedOn = agent === "ctxinject" ? "an agent that opens the file reads it" : "the agents' own loaders pass it on";
    findings.push(
      found.stray
        ? {
            severity: "warning",
            kind: "stray-zero-width",
            agent,
            file: file.path,
            line: found.line,
            message: `${strayWords(found)}: it hides no text, but no editor shows it; ctxinject removes it from what it prints (delete it)`,
          }
        : {
            severity: "error",
            kind: "hidden-characters",
            agent,
            file: file.path,
            line: found.line,
            message: `${describeHidden(found)}: text a reviewer cannot see, which a model reads; ctxinject removes it from what it prints, ${passedOn}`,
          },
    );
  }
  // Tested for hints by the compiled patterns, as select tests --all's files: a search per text (the default for a
  // few short texts) cost doctor ~40 ms over a 100k-file tree's thousands of files; the redactions are the same.
  // Select's answer for the same text where it tested it (core/redact.ts PATTERN_REDACTIONS).
  const selects = tested?.get(file.path);
  for (const r of selects !== undefined && selects.text === file.text ? selects.redactions : redactSecrets(file.text, "patterns").redactions) {
    const agent = agentOf();
    const loaders =
      agent === "ctxinject"
        ? "no agent loads this file by itself and ctxinject redacts it, but an agent that opens the file sends it to its model provider"
        : "every agent that loads the file sends it to its model provider (ctxinject redacts it)";
    // A credential's shape is an error; a credential's place holding an example's word (`user:pass@`) a warning.
    findings.push(
      r.weak
        ? {
            severity: "warning",
            kind: "secret",
            agent,
            file: file.path,
            line: r.line,
            message: `what may be a credential (${r.kind}), or an example of one: if it is real, ${loaders}`,
          }
        : { severity: "error", kind: "secret", agent, file: file.path, line: r.line, message: `a credential (${r.kind}) in an instruction file: ${loaders}` },
    );
  }
  // Lines counted for a rule only: the split costs an array of every file's lines.
  const lines = isRule ? file.text.split("\n").length : 0;
  if (lines > LONG_RULE_LINES) {
    findings.push({
      severity: "info",
      kind: "long-rule",
      agent: agentOf(),
      file: file.path,
      message: `${lines} lines: long rules are followed less reliably (Cursor's guidance: under ${LONG_RULE_LINES} lines); split it by topic`,
    });
  }
  return findings;
}

/** "1 zero-width character (U+200B) at column 51, outside any word". */
function strayWords(found: HiddenCharacters): string {
  const one = found.count === 1;
  return `${found.count} zero-width character${one ? "" : "s"} (${found.codePoints.join(", ")}) ${one ? "" : "each alone, the first "}at column ${found.column}, outside any word`;
}
