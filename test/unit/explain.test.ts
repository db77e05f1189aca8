import { test } from "uvu";
import * as assert from "uvu/assert";
import { renderExplainJson, renderExplainText, wrap } from "../../src/core/render/explain.js";
import { scoreRelevance } from "../../src/core/prompt/relevance.js";
import { stemmer } from "stemmer";
import { select } from "../helpers/tree.js";

const selection = () =>
  select(
    {
      ".cursor/rules/ts.mdc": "---\nglobs: '*.ts'\n---\nTS",
      ".cursor/rules/css.mdc": "---\nglobs: '*.css'\n---\nCSS",
      "AGENTS.md": "Agents",
    },
    { targets: ["src/a.ts"] },
  );

test("explain lists every candidate with status and reason, and counts statuses", () => {
  const text = renderExplainText(selection().candidates);
  const lines = text.trimEnd().split("\n");
  // A row is number, status, tokens and id; its priority, kind and source and its reason go under it.
  assert.match(lines[0]!, /^#\s+status\s+tokens\s+id$/);
  assert.match(lines[1]!, /^ {6}priority · kind · source — reason$/);
  assert.match(text, /unmatched\s+\d+\s+\.cursor\/rules\/css\.mdc\n {6}normal · auto · rules-injector — no target matches \*\.css/);
  assert.match(text, /included\s+\d+\s+\.cursor\/rules\/ts\.mdc\n {6}normal · auto · rules-injector — glob \*\.ts matches src\/a\.ts/);
  assert.is(lines.at(-1), "3 candidates: 1 unmatched, 2 included");
});

test("a reason longer than the line wraps under its row; a path longer than the line is never broken", () => {
  const [candidate] = selection().candidates;
  const long = `a${"/very-long-folder-name".repeat(6)}/x.ts`;
  const reason = `${"word ".repeat(40)}then ${long} and more words after it`;
  const text = renderExplainText([{ ...candidate!, reason }], undefined, undefined, undefined, 60);
  for (const line of text.split("\n")) assert.ok(line.length <= 60 || !line.trim().includes(" "), line);
  assert.ok(text.split("\n").includes(`        ${long}`), text);
  assert.match(text, /^ {6}normal · auto · rules-injector — word word/m);
  assert.match(text, /^ {8}word word/m);
});

test("wrap keeps the spaces inside a line and drops them where it breaks", () => {
  assert.equal(wrap("key   value that goes on", 14, 2, 4), ["  key   value", "    that goes", "    on"]);
  assert.equal(wrap(`x ${"y".repeat(20)} z`, 10, 0, 2), ["x", `  ${"y".repeat(20)}`, "  z"]);
});

test("explain text has no escape codes unless a painter is given", () => {
  assert.not.match(renderExplainText(selection().candidates), /\u001b\[/);
  const painted = renderExplainText(selection().candidates, {
    green: (s) => `\u001b[32m${s}\u001b[39m`,
    yellow: (s) => s,
    red: (s) => s,
    dim: (s) => s,
    bold: (s) => s,
  });
  assert.match(painted, /\u001b\[32m/);
});

test("explain --json has the contract's fields for every candidate", () => {
  const value = JSON.parse(renderExplainJson(selection().candidates));
  assert.is(value.candidates.length, 3);
  for (const c of value.candidates) {
    for (const key of ["source", "id", "priority", "kind", "path", "tokens", "status", "reason"]) assert.ok(key in c, key);
  }
});

test("relevance evidence keeps the words as written beside the stems it matched on", () => {
  const docs = [{ id: "status", name: "package-status", description: "How package statuses are reported", body: "An alert fires after a minute." }];
  const [score] = scoreRelevance("the Package status dashboard", docs, stemmer);
  assert.ok(score!.matched.includes("packag") && score!.matched.includes("statu"), score!.matched.join(", "));
  const words = score!.words.map((w) => (w.related ? `~${w.word}` : w.word));
  assert.ok(words.includes("package") && words.includes("status"), words.join(", "));
  // "dashboard" is related to monitoring words: the rule's own word is shown.
  assert.ok(words.includes("~alert"), words.join(", "));
  assert.is(score!.words.length, score!.matched.length);
});

test.run();
