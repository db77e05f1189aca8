import type { Candidate } from "../types.js";
import type { Finding } from "./finding.js";

/**
 * A rule kept for two agents whose copies no longer say the same (dedup named one a near copy of the other, or a
 * near copy that drifted by a paragraph: phases/drifted-copy.ts): each agent follows its own copy, so two agents
 * work by different rules, and ctxinject sends only one of them. A copy whose every significant line is in the other
 * (a link or the frontmatter changed) has not drifted.
 */
export function driftChecks(candidates: readonly Candidate[], readersOf: (path: string) => string[], agentOf: (path: string) => string): Finding[] {
  const findings: Finding[] = [];
  const rules = new Set<string>();
  for (const c of candidates) if (c.source === "rules-injector" && c.path !== null) rules.add(c.path);
  for (const c of candidates) {
    const near = c.nearCopyOf;
    if (c.status !== "duplicate" || c.path === null || near === undefined || !rules.has(c.path) || !rules.has(near.of) || near.shared === near.lines) continue;
    const other = near.of;
    const [mine, theirs] = [readersOf(c.path), readersOf(other)];
    const who = mine.length > 0 && theirs.length > 0 ? `: ${mine.join(", ")} and ${theirs.join(", ")} follow different text` : "";
    findings.push({
      severity: "warning",
      kind: "drifted-copy",
      agent: agentOf(c.path),
      file: c.path,
      message: `a copy of ${other} that drifted apart (${near.shared} of its ${near.lines} lines the same)${who}; ctxinject sends one of them. Make them one text again (or one file and a link)`,
    });
  }
  return findings;
}
