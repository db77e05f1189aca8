/**
 * Where a split's relevant rules end up, through the real selection: injected, in the likely tier, or left in the
 * index — and for those left, why: the evidence that would inject them but a score cut (strong), a word of their name,
 * description, triggers or aliases under the likely tier's floor (named), words of their body only (body), or no
 * word at all (none). docs/relevance.md's "where the misses are" comes from it.
 *   node --import tsx test/relevance/misses.ts fresh-r13          counts, then one line per rule left in the index
 */
import { stemmer } from "stemmer";
import { defaultConfig } from "../../src/core/config.js";
import { scoreRelevance } from "../../src/core/prompt/relevance.js";
import { selectContext } from "../../src/core/select.js";
import { ruleName } from "../../src/core/sources/rules.js";
import { relevanceFixture } from "./fixture.js";

const { files, prompts } = await relevanceFixture();
const split = process.argv[2] ?? "fresh-r13";
const nameOf = (id: string) => (id.endsWith("/SKILL.md") ? id.split("/").at(-2)! : ruleName(id));
const counts = new Map<string, number>();
const left: string[] = [];
for (const p of prompts.filter((p) => p.split === split)) {
  const selection = selectContext({ files, targets: [], prompt: p.prompt, stem: stemmer, config: defaultConfig() });
  const injected = new Set(selection.entries.filter((e) => e.kind === "agent-requested").map((e) => nameOf(e.id)));
  const likely = new Set(selection.omitted.filter((o) => o.tier === "likely").map((o) => nameOf(o.id)));
  const docs = selection.scored ?? [];
  const scores = scoreRelevance(p.prompt, docs, stemmer);
  for (const rule of p.relevant) {
    let where: string;
    if (injected.has(rule)) where = "injected";
    else if (likely.has(rule)) where = "likely";
    else {
      const s = scores[docs.findIndex((d) => nameOf(d.id) === rule)];
      where = !s || s.score === 0 ? "none" : s.strong ? "strong" : s.named ? "named" : "body";
      left.push(`${where.padEnd(7)} ${rule.padEnd(22)} ${(s?.score ?? 0).toFixed(3)}  ${p.prompt}`);
    }
    counts.set(where, (counts.get(where) ?? 0) + 1);
  }
}
console.log(["injected", "likely", "strong", "named", "body", "none"].map((k) => `${k} ${counts.get(k) ?? 0}`).join(", "));
console.log(left.sort().join("\n"));
