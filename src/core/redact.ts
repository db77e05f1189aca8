/**
 * Credentials in instruction files must not travel to a model provider. Before anything is printed, content
 * is scanned and each credential is replaced by `[REDACTED:<kind>]`; the caller warns with file and line.
 *
 * These are our own patterns for well-known credential shapes, not a general entropy scanner. The maintained
 * rule set we measured (@secretlint/core with its recommended preset: 30–44 ms to import, 7–11 ms for a first
 * lint) costs about as much as all of ctxinject above bare Node, on every prompt.
 */

export interface Redaction {
  kind: string;
  /** 1-based line of the text where the credential started. */
  line: number;
}

interface Rule {
  kind: string;
  pattern: RegExp;
  /** Index of the group to replace; the whole match when absent. */
  group?: number;
  /** A value that looks like a placeholder rather than a credential. */
  skip?: (value: string) => boolean;
}

const PLACEHOLDER = /^(\$\{?|<|\{|%|process\.env|os\.environ|env\(|your[-_]|example|changeme|xxx|\*{3})/i;

const RULES: Rule[] = [
  { kind: "private-key", pattern: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END \1PRIVATE KEY(?: BLOCK)?-----/g },
  { kind: "aws-access-key", pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g },
  {
    kind: "aws-secret-key",
    pattern: /\b(?:aws_?secret_?access_?key|aws_?secret|secret_?access_?key)\b["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    group: 1,
  },
  { kind: "gcp-service-account", pattern: /"private_key_id"\s*:\s*"([0-9a-f]{40})"/g, group: 1 },
  { kind: "github-token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g },
  { kind: "gitlab-token", pattern: /\bglpat-[A-Za-z0-9_-]{20,}\b/g },
  { kind: "slack-token", pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g },
  { kind: "slack-webhook", pattern: /https:\/\/hooks\.slack\.com\/services\/T[A-Za-z0-9_]+\/B[A-Za-z0-9_]+\/[A-Za-z0-9_]+/g },
  { kind: "npm-token", pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: "npm-token", pattern: /:_authToken=([^\s"'$][^\s"']{8,})/g, group: 1, skip: (v) => PLACEHOLDER.test(v) },
  { kind: "jwt", pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  {
    kind: "password",
    pattern: /(?<![A-Za-z])(?:password|passwd|pwd|secret|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|client[_-]?secret)\b["']?\s*[:=]\s*(["']?)([^\s"'`,;]{12,})\1/gi,
    group: 2,
    // Long and mixed (letters with digits): a real value, not words (`alice-password`), an identifier or a
    // placeholder. Found in public repositories' examples; see the conformance run.
    skip: (v) => PLACEHOLDER.test(v) || !/[A-Za-z]/.test(v) || !/\d/.test(v) || /^(.)\1+$/.test(v),
  },
];

/**
 * A word every credential above contains, case aside. Most files hold none: one scan instead of a dozen (each
 * pattern is compiled on its first use, on every run). Alternatives that share a first letter are grouped under it:
 * the scan of --all's megabytes takes about a quarter less time than with the words side by side. (`authToken` holds `token`.)
 */
const HINT = /a(?:kia|sia|bia|cca|pi[_-]?key)|p(?:rivate.key|assw|wd)|secret|g(?:h[pousr]_|ithub_pat_|lpat-)|xox[abposr]-|hooks\.slack\.com|npm_|eyj|token/i;

export function redactSecrets(text: string): { text: string; redactions: Redaction[] } {
  if (!HINT.test(text)) return { text, redactions: [] };
  const redactions: Redaction[] = [];
  let out = text;
  for (const rule of RULES) {
    out = out.replace(rule.pattern, (...args) => {
      const match = args[0] as string;
      const offset = args[args.length - 2] as number;
      const value = rule.group !== undefined ? (args[rule.group] as string | undefined) : match;
      if (value === undefined || value.startsWith("[REDACTED:") || rule.skip?.(value)) return match;
      redactions.push({ kind: rule.kind, line: lineAt(out, offset + (rule.group !== undefined ? match.indexOf(value) : 0)) });
      const marker = `[REDACTED:${rule.kind}]`;
      return rule.group !== undefined ? match.replace(value, marker) : marker;
    });
  }
  redactions.sort((a, b) => a.line - b.line || (a.kind < b.kind ? -1 : 1));
  return { text: out, redactions };
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
