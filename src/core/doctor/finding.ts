/** What `ctxinject doctor` reports: one thing that silently goes wrong, for which agent, where. */

export const SEVERITIES = ["error", "warning", "info"] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface Finding {
  severity: Severity;
  /** A stable name for the kind of problem (`dead-glob`, `hidden-characters`…), for tools and --json. */
  kind: string;
  /**
   * The agents it concerns, comma-separated: those that read the file by themselves (readers.ts), or the one whose
   * behaviour it is about; `ctxinject` when no agent loads the file by itself (a README).
   */
  agent: string;
  file: string;
  line?: number;
  message: string;
}

/** At or above `threshold` (error > warning > info). */
export const atLeast = (severity: Severity, threshold: Severity): boolean => SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(threshold);

export function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : (a.line ?? 0) - (b.line ?? 0) || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0),
  );
}

/** What each kind of finding is about, in a line: the rules of `--format sarif`. */
export const KIND_TITLES: Readonly<Record<string, string>> = {
  "never-matching": "a description-only rule no prompt is likely to match",
  "always-apply-string": "alwaysApply written as a string",
  "bad-glob-field": "a glob field agents cannot read",
  "claude-rules-globs": "a .claude/rules file with globs but no paths",
  "codex-budget": "Codex cuts the AGENTS chain here",
  "cursor-md-rule": "a .md file in .cursor/rules",
  "dead-glob": "a glob that matches no tracked file",
  "drifted-copy": "a rule kept for two agents whose copies drifted apart",
  "duplicate-text": "the same text in two files",
  "frontmatter-unclosed": "frontmatter never closed",
  "frontmatter-yaml": "frontmatter that is not strict YAML",
  "glob-matches-everything": "globs that match every file",
  "hidden-characters": "invisible characters that hide text",
  "hidden-name": "a file name holding invisible characters or a credential",
  "html-comment": "an HTML comment holding text a rendered view hides",
  "hook-command": "an installed hook whose command does not run",
  "import-cycle": "an import cycle",
  "import-depth": "imports nested too deep",
  "import-missing": "an import of a missing file",
  "import-outside": "an import out of the repository",
  "long-chain": "an agent-file chain over doctor.maxChainTokens",
  "long-rule": "a rule over 500 lines",
  misplaced: "an instruction file where its agent never looks",
  "same-file": "one file reached through several paths",
  secret: "a credential, or an example of one",
  "stray-zero-width": "a stray zero-width character in prose",
  "unquoted-glob": "an unquoted glob read as a YAML alias",
};
