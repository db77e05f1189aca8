import { test } from "uvu";
import * as assert from "uvu/assert";
import { renderExplainJson, renderExplainText } from "../../src/core/render/explain.js";
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
  assert.match(lines[0]!, /^#\s+status\s+priority\s+kind\s+tokens\s+source\s+id\s+reason$/);
  assert.match(text, /unmatched\s+normal\s+auto\s+\d+\s+rules-injector\s+\.cursor\/rules\/css\.mdc\s+no target matches \*\.css/);
  assert.match(text, /included\s+normal\s+auto\s+\d+\s+rules-injector\s+\.cursor\/rules\/ts\.mdc\s+glob \*\.ts matches src\/a\.ts/);
  assert.is(lines.at(-1), "3 candidates: 1 unmatched, 2 included");
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

test.run();
