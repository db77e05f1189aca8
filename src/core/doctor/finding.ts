/** What `ctxinject doctor` reports: one thing that silently goes wrong, for which agent, where. */

export const SEVERITIES = ["error", "warning", "info"] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface Finding {
  severity: Severity;
  /** A stable name for the kind of problem (`dead-glob`, `hidden-characters`…), for tools and --json. */
  kind: string;
  /** The agent it concerns, or "all". */
  agent: string;
  file: string;
  line?: number;
  message: string;
}

/** At or above `threshold` (error > warning > info). */
export const atLeast = (severity: Severity, threshold: Severity): boolean => SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(threshold);

export function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : (a.line ?? 0) - (b.line ?? 0) || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0)));
}
