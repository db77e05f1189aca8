import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { SaxesParser } from "saxes";
import { cutPoints } from "../../src/core/budget/boundaries.js";
import { fitToBudget } from "../../src/core/budget/fit.js";
import { parseFrontmatter } from "../../src/core/parse/frontmatter.js";
import { readGlobList } from "../../src/core/parse/globs.js";
import { renderMarkdown } from "../../src/core/render/markdown.js";
import { renderXml } from "../../src/core/render/xml.js";
import { approxTokens } from "../../src/core/tokens.js";
import type { Entry, Omitted } from "../../src/core/types.js";
import { doc, entry, leftOut } from "../helpers/doc.js";

const RUNS = { numRuns: 300 };
const lonely = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// Text that looks like what rule files hold: words, punctuation, fences, frontmatter fences, unicode.
const piece = fc.oneof(
  fc.constantFrom("---", "```", "~~~", "\n", "\n\n", ". ", "! ", ": ", "- ", "# ", "*.ts", "{a,b}", "`", "<!--", "-->", "\r\n", "\uFEFF", "😀", "漢字", "é"),
  fc.string({ maxLength: 12 }),
);
const ruleText = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(""));

test("the frontmatter reader never throws and never loses the body", () => {
  fc.assert(
    fc.property(ruleText, ruleText, (front, body) => {
      const text = `---\n${front.replace(/^---$/gm, "- - -")}\n---\n${body}`;
      const doc = parseFrontmatter(text, "x.mdc");
      assert.type(doc.data, "object");
      const normalizedBody = body.replace(/\r\n?/g, "\n");
      assert.ok(doc.body.endsWith(normalizedBody) || doc.body.includes(normalizedBody.replace(/^\uFEFF/, "")), "body kept");
    }),
    RUNS,
  );
  fc.assert(
    fc.property(ruleText, (text) => void parseFrontmatter(text, "x.mdc")),
    RUNS,
  );
});

test("the glob splitter keeps every character of every pattern and never splits inside braces", () => {
  const atom = fc.constantFrom("*", "**", "/", ".", "a", "b", "src", "ts", "-", "_", "!");
  const braced = fc
    .array(
      fc.array(atom, { minLength: 1, maxLength: 3 }).map((a) => a.join("")),
      { minLength: 2, maxLength: 3 },
    )
    .map((a) => `{${a.join(",")}}`);
  const pattern = fc.array(fc.oneof(atom, braced), { minLength: 1, maxLength: 6 }).map((a) => a.join(""));
  fc.assert(
    fc.property(fc.array(pattern, { minLength: 1, maxLength: 5 }), (patterns) => {
      assert.equal(readGlobList(patterns.join(",")).patterns, patterns);
      assert.equal(readGlobList(patterns.join(", ")).patterns, patterns);
    }),
    RUNS,
  );
});

test("any string round-trips exactly through the XML renderer and a strict parser", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary", maxLength: 80 }), fc.string({ unit: "binary", maxLength: 20 }), (content, id) => {
      const xml = renderXml(doc([entry(id, content)]));
      const parser = new SaxesParser();
      let text = "";
      let inEntry = false;
      let attrs: Record<string, string> = {};
      parser.on("opentag", (t) => {
        if (t.name === "entry") {
          inEntry = true;
          attrs = t.attributes as Record<string, string>;
        }
      });
      parser.on("text", (t) => void (inEntry && (text += t)));
      parser.on("closetag", (t) => void (t.name === "entry" && (inEntry = false)));
      parser.write(xml).close();
      const decoded = attrs.encoding === "json" ? (JSON.parse(text) as string) : text;
      assert.is(decoded, content);
      const decodedId = (attrs.escaped ?? "").split(" ").includes("id") ? (JSON.parse(attrs.id!) as string) : attrs.id;
      assert.is(decodedId, id);
    }),
    RUNS,
  );
});

test("the budget trimmer never goes over, never splits a character, never leaves a fence open", () => {
  const describe = (e: Entry): Omitted => leftOut(e, "over");
  fc.assert(
    fc.property(fc.array(ruleText, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 400 }), (contents, budget) => {
      const entries = contents.map((c, i) => entry(`r${i}.md`, c.trim() || "x", { tokens: approxTokens(c) }));
      const result = fitToBudget({
        entries,
        omitted: [],
        render: (es, om, more) => renderMarkdown(doc(es, { omitted: om, omittedMore: more })),
        countTokens: approxTokens,
        maxTokens: budget,
        describe,
      });
      assert.ok(approxTokens(result.output) <= budget, "within budget");
      assert.not.match(result.output, lonely);
      for (const e of result.entries.filter((x) => x.truncated)) {
        const original = entries.find((x) => x.id === e.id)!;
        const opened = (original.content.match(/^\s*(`{3,}|~{3,})/gm) ?? []).length;
        const kept = e.content.slice(0, e.content.lastIndexOf("\n\n[…"));
        const fences = (kept.match(/^\s*(`{3,}|~{3,})/gm) ?? []).length;
        if (opened % 2 === 0) assert.is(fences % 2, 0, "no open fence at the cut");
      }
    }),
    RUNS,
  );
});

test("every cut point of any text is at a boundary of whole characters", () => {
  fc.assert(
    fc.property(ruleText, (text) => {
      for (const p of cutPoints(text)) assert.not.match(text.slice(0, p), lonely);
    }),
    RUNS,
  );
});

test.run();
