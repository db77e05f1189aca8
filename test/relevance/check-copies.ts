/**
 * Before a new split is committed: its prompts that an earlier split already holds, word for word or nearly
 * (writers repeat themselves: six of fresh-r9's prompts had to be rewritten, and round 10's first draft repeated a
 * dozen). A held-out figure on prompts the scorer was tuned on is not held out.
 *   node --import tsx test/relevance/check-copies.ts <split> [min-overlap, default 0.45]
 * Prints each near-copy with its overlap (shared words over all words of the two) and exits 1 when there is one.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../helpers/cli.js";

const [split, minArg] = process.argv.slice(2);
if (split === undefined) throw new Error("usage: check-copies.ts <split> [min-overlap]");
const min = minArg === undefined ? 0.45 : Number(minArg);
const prompts = (JSON.parse(readFileSync(join(REPO, "fixtures/relevance/prompts.json"), "utf8")) as { prompts: Array<{ split: string; prompt: string }> })
  .prompts;
const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
const earlier = prompts.filter((p) => p.split !== split).map((p) => ({ prompt: p.prompt, words: words(p.prompt) }));
const mine = prompts.filter((p) => p.split === split);
let copies = 0;
for (const p of mine) {
  const a = words(p.prompt);
  for (const o of earlier) {
    const shared = [...a].filter((w) => o.words.has(w)).length;
    const overlap = shared / (a.size + o.words.size - shared);
    if (overlap < min) continue;
    copies++;
    console.log(`${overlap.toFixed(2)}  ${p.prompt}\n      ${o.prompt}`);
  }
}
const dup = mine.length - new Set(mine.map((p) => p.prompt)).size;
console.log(`${split}: ${mine.length} prompts, ${copies} near-copies of earlier splits (overlap >= ${min}), ${dup} repeated within`);
process.exitCode = copies > 0 || dup > 0 ? 1 : 0;
