import { test } from "uvu";
import * as assert from "uvu/assert";
import { dedupPhase } from "../../src/core/phases/dedup.js";
import { makeCandidate } from "../../src/core/sources/source.js";
import { approxTokens } from "../../src/core/tokens.js";
import type { Candidate } from "../../src/core/types.js";

const rule = (path: string, content: string): Candidate =>
  makeCandidate({ source: "rules-injector", id: path, priority: "normal", kind: "always", path, content, countTokens: approxTokens });
const lines = (word: string, n: number) => Array.from({ length: n }, (_, i) => `${word} guideline number ${i} says to keep the ${word} code tidy`).join("\n");
const statusOf = (candidates: Candidate[]) => candidates.map((c) => `${c.path}: ${c.status}${c.reason === "" ? "" : ` (${c.reason})`}`);

test("a text inside a longer one that is itself inside the longest is named as inside the longest, whatever the list's order", () => {
  const small = lines("api", 6);
  const middle = `${lines("db", 4)}\n${small}`;
  const large = `${lines("ui", 4)}\n${middle}\n${lines("ops", 3)}`;
  const unrelated = Array.from({ length: 40 }, (_, i) => rule(`other/${i}.md`, lines(`topic${i}x`, 6)));
  for (const order of [
    [0, 1, 2],
    [2, 1, 0],
    [1, 0, 2],
  ]) {
    const texts = [rule("small.md", small), rule("middle.md", middle), rule("large.md", large)];
    const ordered = [...unrelated.map((c) => ({ ...c })), ...order.map((i) => texts[i]!)];
    const entries = dedupPhase(ordered, [], new Map(), []);
    assert.equal(statusOf(texts), [
      "small.md: duplicate (its whole text is inside large.md)",
      "middle.md: duplicate (its whole text is inside large.md)",
      "large.md: included",
    ]);
    assert.equal(entries.length, 41);
  }
});

test("a text of short lines only, found whole inside a longer one, is sent once, in the longer", () => {
  const short = Array.from({ length: 30 }, (_, i) => `- item ${i}`).join("\n");
  const longer = `${lines("intro", 3)}\n${short}\n${lines("outro", 3)}`;
  const texts = [rule("short.md", short), rule("longer.md", longer), rule("apart.md", lines("apart", 6))];
  dedupPhase(texts, [], new Map(), []);
  assert.equal(statusOf(texts), ["short.md: duplicate (its whole text is inside longer.md)", "longer.md: included", "apart.md: included"]);
});

test.run();
