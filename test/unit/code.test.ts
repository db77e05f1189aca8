import { test } from "uvu";
import * as assert from "uvu/assert";
import { cutPoints } from "../../src/core/budget/boundaries.js";
import { scanCode, withoutCode } from "../../src/core/parse/code.js";
import { detectKeywords, keywordModes } from "../../src/core/prompt/keywords.js";
import { compactText } from "../../src/core/render/compact.js";
import { guardMarkdown } from "../../src/core/render/guard.js";

const codeOf = (text: string) => scanCode(text).ranges.map(([s, e]) => text.slice(s, e));

test("a ``` block is closed only by backticks: a ~~~ line inside it is code, for compact and the guard alike", () => {
  const text = "Before.\n\n```md\n~~~\n<!-- keep me -->\n\n---\n```\n\n<!-- drop me -->\nAfter.";
  assert.equal(codeOf(text), ["```md\n~~~\n<!-- keep me -->\n\n---\n```"]);
  const compact = compactText(text);
  assert.ok(compact.includes("<!-- keep me -->"), compact);
  assert.not.ok(compact.includes("drop me"), compact);
  assert.ok(guardMarkdown(text).includes("\n\n---\n```"), "the guard leaves a dash line inside the fence alone");
});

test("inline code spans follow CommonMark: a run of n backticks closes on the next run of exactly n", () => {
  assert.equal(codeOf("use `a` and ``b ` c`` but not ` alone"), ["`a`", "``b ` c``"]);
  assert.equal(codeOf("a span `may cross\na line` but\n\nnot `a blank\n\nline`"), ["`may cross\na line`"]);
});

test("a fence line whose info string holds a backtick is inline code, not a fence", () => {
  const { lines } = scanCode("```ulw```\nprose");
  assert.equal(
    lines.map((l) => l.fence),
    [null, null],
  );
});

test("a bare line of backticks closes a span the paragraph left open, so ulw between them is code", () => {
  const prompt = "explain this: ```\nulw\n```";
  assert.equal(codeOf(prompt), ["```\nulw\n```"]);
  assert.not.match(withoutCode(prompt), /ulw/);
  const hits = detectKeywords(prompt, keywordModes({})).filter((h) => h.match !== null);
  assert.equal(hits, []);
});

test("an unclosed fence runs to the end of the text: no cut point inside it", () => {
  const text = "One. Two.\n\n```\nthree. four.\n\nfive.";
  const inside = text.indexOf("```");
  assert.ok(
    cutPoints(text).every((p) => p <= inside),
    String(cutPoints(text)),
  );
});

test.run();
