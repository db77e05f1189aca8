import { test } from "uvu";
import * as assert from "uvu/assert";
import { expandImports, importTokens, resolveImport } from "../../src/core/parse/imports.js";
import type { SourceFile, Warning } from "../../src/core/types.js";

test("import paths resolve from the importing file's folder and never climb out of the root", () => {
  assert.is(resolveImport("pkg/CLAUDE.md", "./notes.md"), "pkg/notes.md");
  assert.is(resolveImport("pkg/CLAUDE.md", "../AGENTS.md"), "AGENTS.md");
  assert.is(resolveImport("pkg/CLAUDE.md", "docs/x.md"), "pkg/docs/x.md");
  assert.is(resolveImport("CLAUDE.md", "../outside.md"), null);
  assert.is(resolveImport("CLAUDE.md", "~/.claude/me.md"), null);
});

test("tokens are found outside code only, never in e-mail addresses", () => {
  const text = "See @a.md and me@b.md.\n\n```\n@c.md\n```\n`@d.md` and @./e.md.";
  assert.equal(
    importTokens(text).map((t) => t.token),
    ["a.md", "./e.md"],
  );
});

test("imports deeper than five levels stop with a warning", () => {
  const files = new Map<string, SourceFile>();
  for (let i = 1; i <= 7; i++) files.set(`f${i}.md`, { path: `f${i}.md`, text: `level ${i} @f${i + 1}.md` });
  const warnings: Warning[] = [];
  const out = expandImports(
    "@f1.md",
    "CLAUDE.md",
    files,
    (f) => f.text,
    (w) => warnings.push(w),
  );
  assert.match(out.text, "level 5 @f6.md");
  assert.ok(
    warnings.some((w) => /deeper than 5/.test(w.message)),
    JSON.stringify(warnings),
  );
});

test("Kiro's #[[file:path]] references: paths from the workspace root, outside code, the same limits as @imports", () => {
  const text = "See #[[file:docs/a.md]] and `#[[file:docs/a.md]]`, #[[file:../up.md]], #[[file: docs/b.md ]], @docs/a.md";
  assert.equal(
    importTokens(text, "kiro-file").map((t) => t.token),
    ["docs/a.md", "../up.md", "docs/b.md"],
  );
  const files = new Map([
    ["docs/a.md", { path: "docs/a.md", text: "A text" }],
    ["docs/b.md", { path: "docs/b.md", text: "B text #[[file:docs/a.md]]" }],
  ]);
  const warnings: string[] = [];
  const out = expandImports(
    text,
    ".kiro/steering/x.md",
    files,
    (f) => f.text,
    (w) => void warnings.push(w.message),
    [".kiro/steering/x.md"],
    "kiro-file",
  );
  assert.is(out.text, "See A text and `#[[file:docs/a.md]]`, #[[file:../up.md]], B text A text, @docs/a.md");
  assert.equal(
    out.imports.map((n) => n.path),
    ["docs/a.md", "docs/b.md"],
  );
  assert.equal(warnings, []);
});

test.run();
