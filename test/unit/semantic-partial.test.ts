import { test } from "uvu";
import * as assert from "uvu/assert";
import { stemmer } from "stemmer";
import { embeddingText } from "../../src/core/prompt/semantic.js";
import { select } from "../helpers/tree.js";

// A slow model's rules arrive over several prompts: a prompt may have vectors for some rules only. The rule the
// words rank first among those left out, with no vector yet, must keep its place in the likely tier (ranked by its
// words), not fall behind ten rules the model merely finds similar.
const rules: Record<string, string> = {
  ".cursor/rules/queue.mdc": "---\ndescription: Background jobs, the retry queue and dead letters\n---\nIdempotent handlers.",
};
for (let n = 0; n < 10; n++) rules[`.cursor/rules/other-${n}.mdc`] = `---\ndescription: Topic ${"abcdefghij"[n]} of its own\n---\nBody ${n}.`;
const prompt = "the worker keeps picking the same item twice";

test("a rule without a vector yet keeps its word rank in the likely tier when other rules have vectors", () => {
  const first = select(rules, { prompt, stem: stemmer });
  const vectors = new Map<string, number[]>();
  for (const doc of first.scored ?? []) if (!doc.id.includes("queue")) vectors.set(embeddingText(doc), [1, 0]);
  const semantic = { query: [1, 0], vectors, minSimilarity: 0.5 };
  const likely = select(rules, { prompt, stem: stemmer, semantic })
    .candidates.filter((c) => c.likely !== undefined)
    .map((c) => c.id);
  assert.is(likely.length, 3);
  assert.ok(likely.includes(".cursor/rules/queue.mdc"), likely.join(", "));
});

test.run();
