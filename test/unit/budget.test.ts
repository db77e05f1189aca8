import { test } from "uvu";
import * as assert from "uvu/assert";
import { cutPoints } from "../../src/core/budget/boundaries.js";
import { fitToBudget, trimNote } from "../../src/core/budget/fit.js";
import { renderMarkdown } from "../../src/core/render/markdown.js";
import { approxTokens } from "../../src/core/tokens.js";
import type { Entry, Omitted } from "../../src/core/types.js";
import { doc, entry, leftOut } from "../helpers/doc.js";

const describe = (e: Entry): Omitted => leftOut(e, "over budget");
const markdown = (entries: Entry[], omitted: Omitted[], more: number) => renderMarkdown(doc(entries, { omitted, omittedMore: more }));
const fit = (entries: Entry[], maxTokens: number, omitted: Omitted[] = []) =>
  fitToBudget({ entries, omitted, render: markdown, countTokens: approxTokens, maxTokens, describe });
const withTokens = (id: string, content: string, extra: Partial<Entry> = {}) => entry(id, content, { tokens: approxTokens(content), ...extra });

test("cut points fall after paragraphs, sentences and list items", () => {
  const text = "First sentence. Second one!\n\n- item one\n- item two\n\nLast paragraph.";
  const cuts = cutPoints(text).map((p) => text.slice(0, p));
  assert.ok(cuts.includes("First sentence."));
  assert.ok(cuts.includes("First sentence. Second one!"));
  assert.ok(cuts.includes("First sentence. Second one!\n\n- item one"));
  assert.not.ok(
    cuts.some((c) => c.endsWith("Last paragraph.")),
    "the whole text is not a cut",
  );
});

test("no cut point falls inside a code fence or inline code", () => {
  const text = "Intro. More.\n\n```js\nconst a = 1. b = 2.\n\nconsole.log(a).\n```\n\nUse `a. b` here. Done.";
  for (const p of cutPoints(text)) {
    const kept = text.slice(0, p);
    const fences = kept.split("\n").filter((l) => l.trim().startsWith("```")).length;
    assert.is(fences % 2, 0, `cut inside a fence: ${JSON.stringify(kept)}`);
    const lastLine = kept.slice(kept.lastIndexOf("\n") + 1);
    if (lastLine.trim().startsWith("```")) continue;
    assert.is((lastLine.match(/`/g) ?? []).length % 2, 0, `cut inside inline code: ${JSON.stringify(kept)}`);
  }
});

test("everything fits: nothing changes", () => {
  const entries = [withTokens("a", "One."), withTokens("b", "Two.")];
  const result = fit(entries, 1000);
  assert.equal(result.entries, entries);
  assert.equal(result.dropped, []);
  assert.is(result.trimmed, null);
});

test("the output never exceeds the budget, for every budget", () => {
  const entries = [
    withTokens("a.md", "Alpha rule. It has two sentences.\n\nAnd a second paragraph that goes on for a while."),
    withTokens("b.md", "Beta rule is short."),
    withTokens("c.md", "Gamma: " + "words and more words. ".repeat(20)),
  ];
  for (let budget = 1; budget <= 250; budget++) {
    const result = fit(entries, budget);
    assert.ok(approxTokens(result.output) <= budget, `budget ${budget}: ${approxTokens(result.output)} tokens`);
  }
});

test("the first entry that does not fit is trimmed at a sentence with a note naming the file", () => {
  const paragraph = "Sentence one is here. Sentence two follows it. Sentence three ends the paragraph.";
  const long = withTokens("docs/guide.md", Array(8).fill(paragraph).join("\n\n"));
  const entries = [withTokens("a", "Short."), long, withTokens("z", "Last.")];
  const full = approxTokens(markdown(entries, [], 0));
  const result = fit(entries, full - 60);
  assert.ok(approxTokens(result.output) <= full - 60);
  assert.is(result.trimmed, "rules-injector:docs/guide.md");
  const trimmed = result.entries.find((e) => e.id === "docs/guide.md")!;
  assert.ok(trimmed.truncated);
  const kept = trimmed.content.slice(0, trimmed.content.length - trimNote(long).length).trimEnd();
  assert.ok(long.content.startsWith(kept) && kept.length < long.content.length, "a prefix of the original");
  assert.match(kept, /\.$/, "ends at the end of a sentence");
  assert.ok(trimmed.content.endsWith(trimNote(long)));
  assert.match(trimNote(long), "read docs/guide.md for the rest");
  assert.equal(result.dropped, ["rules-injector:z"], "what follows a trimmed entry goes to the index");
  assert.ok(result.omitted.some((o) => o.id === "z"));
});

test("no lower-priority entry is kept while a higher one was dropped", () => {
  const big = withTokens("big", "x".repeat(2000));
  const small = withTokens("small", "tiny.");
  const result = fit([withTokens("first", "First."), big, small], 60);
  assert.equal(
    result.entries.map((e) => e.id),
    ["first"],
  );
  assert.equal(result.dropped, ["rules-injector:big", "rules-injector:small"]);
});

test("a single sentence longer than the budget is listed, not cut mid-sentence", () => {
  const sentence = withTokens("one.md", "This is one very long sentence without any place to stop " + "and it keeps going ".repeat(30) + "until the end.");
  const result = fit([sentence], 60);
  assert.equal(result.entries, []);
  assert.equal(result.dropped, ["rules-injector:one.md"]);
  assert.match(result.output, "`one.md`");
});

test("a code fence at the cut is kept whole or left out whole", () => {
  const content =
    "Intro sentence.\n\n```sh\nnpm ci\nnpm test\nnpm run build\n```\n\nAfter the fence there is more text to read. " + "Then one more sentence. ".repeat(6);
  const e = withTokens("f.md", content);
  const seen = new Set<string>();
  for (let budget = 10; budget <= 90; budget++) {
    const kept = fit([e], budget).entries[0];
    const fences = (kept?.content.match(/^```/gm) ?? []).length;
    assert.is(fences % 2, 0, `budget ${budget} left an open fence`);
    seen.add(!kept ? "left out" : kept.content === content ? "whole" : fences === 0 ? "cut before the fence" : "cut after the fence");
  }
  // Each way the fence can meet the cut happened within these budgets, so the check above was made on each.
  assert.equal([...seen].sort(), ["cut after the fence", "cut before the fence", "left out", "whole"]);
});

test("emoji and other surrogate pairs are never split", () => {
  const content = "Emoji 😀 first. " + "Then 漢字 and 🎉 again. ".repeat(10);
  const e = withTokens("e.md", content);
  for (let budget = 5; budget <= 120; budget++) {
    const result = fit([e], budget);
    assert.not.match(result.output, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/, `budget ${budget}`);
  }
});

test("a budget too small for any entry still lists them in the index", () => {
  const sentence = (w: string) => `${w} runs on `.repeat(40) + "without a stop";
  const entries = [withTokens("a.md", sentence("alpha")), withTokens("b.md", sentence("beta"))];
  const result = fit(entries, 45);
  assert.equal(result.entries, []);
  assert.match(result.output, "`a.md`");
  assert.match(result.output, "`b.md`");
  assert.ok(approxTokens(result.output) <= 45);
});

test("every entry left out is named: the index drops descriptions, then entries give way, before any name is counted", () => {
  const entries = [
    withTokens("first.md", "Keep me."),
    ...Array.from({ length: 8 }, (_, i) => withTokens(`later/r${i}.md`, "Body text without a stop ".repeat(20))),
  ];
  const described = (e: Entry): Omitted => ({ ...describe(e), description: "a description long enough to cost a few tokens" });
  const result = fitToBudget({ entries, omitted: [], render: markdown, countTokens: approxTokens, maxTokens: 90, describe: described });
  assert.is(result.more, 0);
  for (let i = 0; i < 8; i++) assert.match(result.output, `\`later/r${i}.md\``);
  assert.not.match(result.output, "more (ctxinject");
  assert.ok(approxTokens(result.output) <= 90);
});

test("entries give way in the drop order given, whatever their place in the output", () => {
  const entries = [
    withTokens("strong.md", "Strong rule. ".repeat(10)),
    withTokens("weak.md", "Weak guess. ".repeat(10)),
    withTokens("mid.md", "Middle. ".repeat(10)),
  ];
  const full = approxTokens(markdown(entries, [], 0));
  const result = fitToBudget({ entries, omitted: [], render: markdown, countTokens: approxTokens, maxTokens: full - 10, describe, dropOrder: [1, 2, 0] });
  const ids = result.entries.map((e) => e.id);
  assert.equal(
    ids.filter((id) => id !== "weak.md"),
    ["strong.md", "mid.md"],
    "the others stay whole, in the output order",
  );
  assert.ok(
    result.entries.every((e) => e.id === "weak.md" || !e.truncated),
    "only the weakest is cut",
  );
  assert.ok(result.dropped.includes("rules-injector:weak.md") || result.trimmed === "rules-injector:weak.md");
});

test("entries that did not fit come first in the index, before rules below the relevance threshold", () => {
  const below: Omitted = { source: "rules-injector", id: "below.mdc", priority: "normal", path: "below.mdc", description: "d", tokens: 3, reason: "relevance" };
  const result = fit([withTokens("a.md", "Alpha runs on ".repeat(50))], 60, [below]);
  assert.equal(
    result.omitted.map((o) => o.id),
    ["a.md", "below.mdc"],
  );
});

test("when even the index does not fit, its last items become a count", () => {
  const entries = Array.from({ length: 12 }, (_, i) => withTokens(`rules/r${i}.md`, "Body text. ".repeat(30)));
  const result = fit(entries, 60);
  assert.ok(result.more > 0);
  assert.match(result.output, `and ${result.more} more`);
  assert.ok(approxTokens(result.output) <= 60);
});

test("a budget too small for anything prints nothing", () => {
  assert.is(fit([withTokens("a.md", "Alpha. ".repeat(40))], 2).output, "");
});

test.run();
