import { test } from "uvu";
import * as assert from "uvu/assert";
import { parseFrontmatter } from "../../src/core/parse/frontmatter.js";

test("reads strict YAML frontmatter and returns the body after it", () => {
  const doc = parseFrontmatter("---\ndescription: Hello\nalwaysApply: true\n---\nBody text\n", "r.mdc");
  assert.equal(doc.data, { description: "Hello", alwaysApply: true });
  assert.is(doc.body, "Body text\n");
  assert.equal(doc.warnings, []);
});

test("keeps description and alwaysApply when Cursor's unquoted globs break strict YAML", () => {
  const doc = parseFrontmatter("---\ndescription: TS rules\nglobs: *.ts,*.tsx\nalwaysApply: false\n---\nUse strict.\n", "ts.mdc");
  assert.is(doc.data.description, "TS rules");
  assert.is(doc.data.globs, "*.ts,*.tsx");
  assert.is(doc.data.alwaysApply, false);
  assert.is(doc.body, "Use strict.\n");
  assert.is(doc.warnings.length, 1);
  assert.is(doc.warnings[0]!.file, "ts.mdc");
  assert.is(doc.warnings[0]!.line, 3);
  assert.match(doc.warnings[0]!.message, /not strict YAML/);
});

test("accepts a byte-order mark and CRLF line endings", () => {
  const doc = parseFrontmatter('\uFEFF---\r\ndescription: Hooks\r\nglobs: "*.tsx"\r\n---\r\nLine one\r\nLine two\r\n', "r.mdc");
  assert.equal(doc.data, { description: "Hooks", globs: "*.tsx" });
  assert.is(doc.body, "Line one\nLine two\n");
});

test("warns about an unclosed frontmatter block and keeps the whole text", () => {
  const text = "---\ndescription: never closed\n\nBody\n";
  const doc = parseFrontmatter(text, "broken.mdc");
  assert.is(doc.body, text);
  assert.is(doc.hasFrontmatter, false);
  assert.is(doc.warnings[0]!.file, "broken.mdc");
  assert.match(doc.warnings[0]!.message, /never closed/);
});

test("a file without frontmatter is all body", () => {
  const doc = parseFrontmatter("# Title\n\n---\n\nafter a rule\n", "AGENTS.md");
  assert.equal(doc.data, {});
  assert.is(doc.body, "# Title\n\n---\n\nafter a rule\n");
});

test("empty frontmatter gives no fields and no warning", () => {
  const doc = parseFrontmatter("---\n---\nBody", "x.md");
  assert.equal(doc.data, {});
  assert.is(doc.body, "Body");
  assert.equal(doc.warnings, []);
});

test("lenient reading keeps block lists, inline lists and booleans, and names the unreadable line", () => {
  const raw =
    '---\ndescription: Mixed: bad yaml\nglobs:\n  - "src/**"\n  - lib/*.js\npaths: [a/*.ts, "b/{x,y}/**"]\nalwaysApply: True\nthis line is not a field\n---\nBody';
  const doc = parseFrontmatter(raw, "mixed.mdc");
  assert.is(doc.data.description, "Mixed: bad yaml");
  assert.equal(doc.data.globs, ["src/**", "lib/*.js"]);
  assert.equal(doc.data.paths, ["a/*.ts", "b/{x,y}/**"]);
  assert.is(doc.data.alwaysApply, true);
  const lineWarning = doc.warnings.find((w) => /cannot read/.test(w.message));
  assert.ok(lineWarning, "expected a warning for the unreadable line");
  assert.is(lineWarning!.line, 8);
});

test("a ---js block is never evaluated", () => {
  const doc = parseFrontmatter("---js\n{ evil: process.exit(9) }\n---\nBody", "x.mdc");
  assert.is(doc.hasFrontmatter, false);
  assert.match(doc.body, /process\.exit/);
});

test("frontmatter that is a plain string is read line by line with a warning", () => {
  const doc = parseFrontmatter("---\njust words\n---\nBody", "x.mdc");
  assert.is(doc.body, "Body");
  assert.ok(doc.warnings.length >= 1);
});

test("a credential spelled with a quoted string's escapes is redacted once decoded, with a warning naming the field", () => {
  // "\x67hp_" decodes to "ghp_": the file's text holds no token until YAML reads the escape.
  const token = "\\x67hp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
  const doc = parseFrontmatter(`---\ndescription: "deploy with ${token}"\n---\nBody.\n`, ".cursor/rules/deploy.mdc");
  assert.is(doc.data.description, "deploy with [REDACTED:github-token]");
  assert.ok(
    doc.warnings.some((w) => w.message.includes('"description": its escapes spell a credential (github-token); redacted')),
    JSON.stringify(doc.warnings),
  );
});

test.run();
