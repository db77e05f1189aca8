/**
 * What each group of the related-words table earns: reach and the likely tier's length per split with the group
 * emptied, beside the whole table. A group whose removal lowers reach on no split earns nothing on any (issue 45: such
 * a group goes). `npm run relevance -- --without=related` measures the whole table.
 *   node --import tsx test/relevance/ablate-related.ts
 */
import { stemmer } from "stemmer";
import { defaultConfig } from "../../src/core/config.js";
import { selectContext } from "../../src/core/select.js";
import { RELATED } from "../../src/core/prompt/words.js";
import { ruleName } from "../../src/core/sources/rules.js";
import { relevanceFixture } from "./fixture.js";

const { files, prompts } = await relevanceFixture();
const splits = [...new Set(prompts.map((p) => p.split))];
const nameOf = (id: string) => (id.endsWith("/SKILL.md") ? id.split("/").at(-2)! : ruleName(id));

/** Relevant rules reached, per split. */
function reached(): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of prompts) {
    const s = selectContext({ files, targets: [], prompt: p.prompt, stem: stemmer, config: defaultConfig() });
    const got = new Set([
      ...s.entries.filter((e) => e.kind === "agent-requested").map((e) => nameOf(e.id)),
      ...s.omitted.filter((o) => o.tier === "likely").map((o) => nameOf(o.id)),
    ]);
    out.set(p.split, (out.get(p.split) ?? 0) + p.relevant.filter((r) => got.has(r)).length);
  }
  return out;
}

const table = RELATED as string[][];
const whole = reached();
console.log(`whole table: ${splits.map((s) => `${s} ${whole.get(s) ?? 0}`).join(", ")}`);
for (let i = 0; i < table.length; i++) {
  const group = table[i]!.splice(0);
  const without = reached();
  table[i]!.push(...group);
  const earns = splits.filter((s) => (whole.get(s) ?? 0) > (without.get(s) ?? 0));
  const costs = splits.filter((s) => (whole.get(s) ?? 0) < (without.get(s) ?? 0));
  console.log(
    `${earns.length > 0 ? "EARNS" : "-----"} group ${i} [${group.slice(0, 4).join(" ")}] earns on: ${earns.map((s) => `${s} +${(whole.get(s) ?? 0) - (without.get(s) ?? 0)}`).join(" ") || "none"}; costs on: ${costs.join(" ") || "none"}`,
  );
}
