/**
 * doctor's findings for CI: SARIF 2.1.0 for GitHub code scanning (`--format sarif`) and GitHub Actions workflow
 * commands (`--format github`), which put each finding on its file and line in a pull request.
 */
import { KIND_TITLES, SEVERITIES, type Finding, type Severity } from "./finding.js";

const SARIF_LEVEL: Record<Severity, "error" | "warning" | "note"> = { error: "error", warning: "warning", info: "note" };
const GITHUB_COMMAND: Record<Severity, "error" | "warning" | "notice"> = { error: "error", warning: "warning", info: "notice" };

/**
 * One run, one rule per kind found (its default level the most severe of its results), one result per finding.
 * GitHub shows a result only on a line, so a finding about a whole file points at its line 1. Paths are relative
 * to the repository root (`%SRCROOT%`), as code scanning resolves them against the checkout.
 */
export function renderSarif(findings: readonly Finding[], version: string): string {
  const kinds = [...new Set(findings.map((f) => f.kind))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const worst = (kind: string) => SEVERITIES.find((s) => findings.some((f) => f.kind === kind && f.severity === s))!;
  const rules = kinds.map((kind) => ({
    id: kind,
    name: kind,
    shortDescription: { text: KIND_TITLES[kind] ?? kind },
    defaultConfiguration: { level: SARIF_LEVEL[worst(kind)] },
  }));
  const results = findings.map((f) => ({
    ruleId: f.kind,
    ruleIndex: kinds.indexOf(f.kind),
    level: SARIF_LEVEL[f.severity],
    message: { text: `[${f.agent}] ${f.message}` },
    locations: [{ physicalLocation: { artifactLocation: { uri: encodeUriPath(f.file), uriBaseId: "%SRCROOT%" }, region: { startLine: f.line ?? 1 } } }],
    properties: { agents: f.agent.split(", ") },
  }));
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "ctxinject", semanticVersion: version, rules } },
        originalUriBaseIds: { "%SRCROOT%": { description: { text: "the repository root" } } },
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/** A root-relative path as a relative URI reference: each segment percent-encoded, the slashes kept. */
function encodeUriPath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/** `::error file=…,line=…,title=…::message`, one line per finding (notice for info). */
export function renderGithub(findings: readonly Finding[]): string {
  return findings
    .map((f) => {
      const properties = [
        `file=${escapeProperty(f.file)}`,
        ...(f.line !== undefined ? [`line=${f.line}`] : []),
        `title=${escapeProperty(`${f.kind} [${f.agent}]`)}`,
      ];
      return `::${GITHUB_COMMAND[f.severity]} ${properties.join(",")}::${escapeData(f.message)}\n`;
    })
    .join("");
}

/** A workflow command's message (GitHub's toolkit escapeData): `%`, CR and LF, which would end or forge a command. */
export function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** A workflow command's property value (escapeProperty): also `:` and `,`, which end a value. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}
