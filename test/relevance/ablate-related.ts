/**
 * What each group of the related-words table earns: reach and the likely tier's length on one split with the
 * group emptied, beside the whole table. A group whose removal costs no reach on a split written after the table
 * earns nothing there.
 *   node --import tsx test/relevance/ablate-related.ts fresh-r5
 */
import { stemmer } from "stemmer";
import { defaultConfig } from "../../src/core/config.js";
import { selectContext } from "../../src/core/select.js";
import { RELATED } from "../../src/core/prompt/words.js";
import { ruleName } from "../../src/core/sources/rules.js";
import { relevanceFixture } from "./fixture.js";

const split = process.argv[2] ?? "fresh-r5";
const fixture = await relevanceFixture();
const files = fixture.files;
const prompts = fixture.prompts.filter((p) => split === "all" || p.split === split);
const nameOf = (id: string) => (id.endsWith("/SKILL.md") ? id.split("/").at(-2)! : ruleName(id));

function measure(): { reach: number; likely: number } {
  let reached = 0;
  let relevant = 0;
  let likely = 0;
  for (const p of prompts) {
    const s = selectContext({ files, targets: [], prompt: p.prompt, stem: stemmer, config: defaultConfig() });
    const got = new Set([...s.entries.filter((e) => e.kind === "agent-requested").map((e) => nameOf(e.id)), ...s.omitted.filter((o) => o.tier === "likely").map((o) => nameOf(o.id))]);
    likely += s.omitted.filter((o) => o.tier === "likely").length;
    relevant += p.relevant.length;
    for (const r of p.relevant) if (got.has(r)) reached++;
  }
  return { reach: reached / Math.max(1, relevant), likely: likely / Math.max(1, prompts.length) };
}

const table = RELATED as string[][];
const whole = measure();
console.log(`whole table: reach ${whole.reach.toFixed(3)} likely/prompt ${whole.likely.toFixed(2)}`);
const saved = table.map((g) => [...g]);
table.forEach((g) => g.splice(0));
const none = measure();
console.log(`no table:    reach ${none.reach.toFixed(3)} likely/prompt ${none.likely.toFixed(2)}`);
saved.forEach((g, i) => table[i]!.push(...g));
for (let i = 0; i < table.length; i++) {
  const group = table[i]!.splice(0);
  const without = measure();
  table[i]!.push(...group);
  const delta = whole.reach - without.reach;
  console.log(`${delta > 0 ? "EARNS" : delta < 0 ? "HURTS" : "-----"} ${(-delta).toFixed(3)} ${without.likely.toFixed(2)}  ${group.slice(0, 4).join(" ")}`);
}
