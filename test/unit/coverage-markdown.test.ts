import { test } from "uvu";
import * as assert from "uvu/assert";
import { renderCoverageMarkdown, MARKDOWN_MAX_CHARS } from "../../src/core/coverage/markdown.js";
import { renderCoverageHtml } from "../../src/core/coverage/html.js";
import { renderCoverageJson } from "../../src/core/coverage/json.js";
import type { CellFinding, CoverageCell, CoverageModel } from "../../src/core/coverage/model.js";

// The markdown counts findings, not the files they name: "7 warn" on a cell was one finding over 7 files.

const SEVEN = ["a.md", "b.md", "c.md", "d.md", "e.md", "f.md", "g.md"].map((f) => `.claude/rules/${f}`);
const notSeen: CellFinding = {
  severity: "warning",
  kind: "not-seen",
  file: SEVEN[0]!,
  message: "7 files that apply here for other agents: cursor never sees them",
  files: SEVEN,
};
const quiet = (file: string): CellFinding => ({
  severity: "warning",
  kind: "never-matching",
  file,
  line: 2,
  message: "a description no prompt is likely to match",
});

function model(findings: CellFinding[], folders = 2): CoverageModel {
  const cell = (f: CellFinding[]): CoverageCell => ({ tokens: 10, loads: [0], adds: [], offers: [], findings: f });
  return {
    agents: [
      { name: "claude-code", integration: true },
      { name: "cursor", integration: false },
    ],
    representative: "",
    folders: Array.from({ length: folders }, (_, i) => ({
      path: i === 0 ? "" : `pkg-${i}`,
      depth: i === 0 ? 0 : 1,
      files: 3,
      representative: i === 0 ? "x.ts" : `pkg-${i}/x.ts`,
      hidden: 0,
      cells: { "claude-code": 0, cursor: 1 },
    })),
    items: [{ file: "AGENTS.md", tokens: 10, reason: "reads it" }],
    cells: [cell([]), cell(findings)],
    rules: [],
  };
}

test("markdown: a not-seen over 7 files in 2 folders is one finding, its 7 files listed under it", () => {
  const md = renderCoverageMarkdown(model([notSeen]));
  assert.match(md, "### 1 finding (1 warning)\n\n- **warning** `not-seen`: files that apply there for other agents, never seen by cursor (2 folders)\n");
  for (const file of SEVEN) assert.match(md, `  - \`${file}\` (2 folders)\n`);
  assert.not.match(md, "7 warn");
});

test("markdown: one doctor finding said alike of several files is one finding, each file and line under it", () => {
  const md = renderCoverageMarkdown(model([quiet("a/.cursor/rules/style.mdc"), quiet("b/.cursor/rules/style.mdc")]));
  assert.match(
    md,
    "### 1 finding (1 warning)\n\n- **warning** `never-matching`: a description no prompt is likely to match (cursor; 4 folders)\n  - `a/.cursor/rules/style.mdc:2` (2 folders)\n  - `b/.cursor/rules/style.mdc:2` (2 folders)\n",
  );
});

test("markdown: however many folders change, the text stays under a PR comment's limit and says where it was cut", () => {
  const wide = model([notSeen], 400);
  // Every folder gives cursor a dozen long-named files the folder above does not: each a long line of "where it changes".
  wide.folders.forEach((f, i) => {
    const first = wide.items.length;
    for (let k = 0; k < 12; k++) wide.items.push({ file: `pkg-${i}/${"deep/".repeat(60)}rule-${k}.md`, tokens: 1, reason: "r" });
    wide.cells.push({ tokens: 12, loads: Array.from({ length: 12 }, (_, k) => first + k), adds: [], offers: [], findings: [] });
    f.cells = { "claude-code": 0, cursor: wide.cells.length - 1 };
  });
  const md = renderCoverageMarkdown(wide);
  assert.ok(md.length <= MARKDOWN_MAX_CHARS, String(md.length));
  assert.match(md, /Cut here at \d+ characters \(a pull request comment holds 65,536\)/);
});

test("each coverage format gates the names it shows by itself, as the other renderers do: no hidden character of a folder's or file's name is left", () => {
  const hostile = model([quiet("a/.cursor/rules/st\u202Eyle.mdc")]);
  hostile.folders[1]!.path = "pkg\u200B-1";
  hostile.items[0]!.file = "AGENTS\u2066.md";
  for (const [format, text] of [
    ["markdown", renderCoverageMarkdown(hostile)],
    ["html", renderCoverageHtml(hostile)],
    ["json", renderCoverageJson("/repo", hostile)],
  ] as const) {
    assert.not.match(text, /[\u200B\u202E\u2066]/, format);
    assert.match(text, "rules/style.mdc", format);
  }
});

test("a name with a line break or an escape stays one name: no forged markdown line, no control in the html data", () => {
  const hostile = model([quiet("a/.cursor/rules/x\n### forged heading.mdc")]);
  hostile.items[0]!.file = "AGENTS\u001b[2J.md";
  const md = renderCoverageMarkdown(hostile);
  assert.not.match(md, /^### forged heading/m);
  const html = renderCoverageHtml(hostile);
  assert.not.match(html, /\\u001b|\u001b/);
});

test.run();
