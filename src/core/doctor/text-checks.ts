/** Checks of a file's text, whatever kind of instruction file it is. */
import { describeHidden, stripHidden } from "../hidden.js";
import { redactSecrets } from "../redact.js";
import type { SourceFile } from "../types.js";
import type { Finding } from "./finding.js";

/** Cursor's guidance: keep a rule under 500 lines (longer ones are followed less reliably). */
export const LONG_RULE_LINES = 500;

export function textChecks(file: SourceFile, isRule: boolean): Finding[] {
  const findings: Finding[] = [];
  const hidden = stripHidden(file.text);
  if (hidden !== null) {
    findings.push({ severity: "error", kind: "hidden-characters", agent: "all", file: file.path, line: hidden.found.line, message: `${describeHidden(hidden.found)}: text a reviewer cannot see, which a model reads; ctxinject removes it from what it prints, the agents' own loaders pass it on` });
  }
  for (const r of redactSecrets(file.text).redactions) {
    // A credential's shape is an error; a credential's place holding an example's word (`user:pass@`) a warning.
    findings.push(
      r.weak
        ? { severity: "warning", kind: "secret", agent: "all", file: file.path, line: r.line, message: `what may be a credential (${r.kind}), or an example of one: if it is real, every agent that loads the file sends it to its model provider (ctxinject redacts it)` }
        : { severity: "error", kind: "secret", agent: "all", file: file.path, line: r.line, message: `a credential (${r.kind}) in an instruction file: every agent that loads the file sends it to its model provider (ctxinject redacts it)` },
    );
  }
  const lines = file.text.split("\n").length;
  if (isRule && lines > LONG_RULE_LINES) {
    findings.push({ severity: "info", kind: "long-rule", agent: "cursor", file: file.path, message: `${lines} lines: Cursor advises rules under ${LONG_RULE_LINES} lines; split it by topic` });
  }
  return findings;
}
