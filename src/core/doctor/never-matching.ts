/** Description-only rules whose words give a prompt nothing to match: the agent (and ctxinject) never picks them. */
import { parseFrontmatter } from "../parse/frontmatter.js";
import { splitWords, terms } from "../prompt/words.js";
import type { RunMemo } from "../run-memo.js";
import { relevanceFields, ruleName } from "../sources/rules.js";
import type { Candidate, SourceFile } from "../types.js";
import type { Finding } from "./finding.js";

/**
 * Fewer distinct content words than this, beside the name, and a prompt has almost nothing to meet: a rule is
 * chosen on the words of its name, description, `when_to_use` and aliases (round 6: a one- or two-word description
 * reached the likely tier on under a third of the prompts written for it).
 */
const MIN_CONTENT_WORDS = 3;

/**
 * One finding per agent-requested rule or skill whose description repeats its name, or whose description,
 * `when_to_use` and aliases hold fewer than MIN_CONTENT_WORDS distinct content words: add `keywords:` or `aliases:`.
 */
export function neverMatchingChecks(
  candidates: Candidate[],
  files: ReadonlyMap<string, SourceFile>,
  agentOf: (path: string) => string,
  memo?: RunMemo,
): Finding[] {
  const findings: Finding[] = [];
  for (const c of candidates) {
    if (c.kind !== "agent-requested" || c.path === null || c.description === null) continue;
    const file = files.get(c.path);
    if (file === undefined) continue;
    const doc = parseFrontmatter(file.text, file.path, memo);
    const { whenToUse, aliases } = relevanceFields(doc.data);
    const name = typeof doc.data.name === "string" ? doc.data.name : ruleName(c.path);
    const line = doc.lineOf("description");
    const at = line !== undefined ? { line } : {};
    const same = splitWords(c.description).join(" ") === splitWords(name).join(" ");
    const words = new Set(terms([c.description, whenToUse, ...aliases].join("\n"), (w) => w));
    const fix = "add the words people use for this task as `keywords:` or `aliases:` in the frontmatter (or a longer description)";
    const said = words.size === 0 ? "no content word" : `only ${[...words].join(", ")}`;
    const why =
      same && aliases.length === 0 && whenToUse === ""
        ? `the description only repeats the name "${name}": no prompt can tell when it applies`
        : words.size < MIN_CONTENT_WORDS
          ? `the description, when_to_use and aliases hold ${said}: a prompt rarely says exactly that, so it is hardly ever chosen`
          : undefined;
    if (why !== undefined)
      findings.push({ severity: "warning", kind: "never-matching", agent: agentOf(c.path), file: c.path, ...at, message: `${why}; ${fix}` });
  }
  return findings;
}
