import { test } from "uvu";
import * as assert from "uvu/assert";
import { compileGlobs, matchesEverything, readGlobList } from "../../src/core/parse/globs.js";

test("reads a single pattern, a comma list, an inline list and a block list alike", () => {
  assert.equal(readGlobList("src/**/*.ts").patterns, ["src/**/*.ts"]);
  assert.equal(readGlobList("*.ts, *.tsx").patterns, ["*.ts", "*.tsx"]);
  assert.equal(readGlobList(["*.ts", "*.tsx"]).patterns, ["*.ts", "*.tsx"]);
  assert.equal(readGlobList(["*.ts,*.tsx", "docs/**"]).patterns, ["*.ts", "*.tsx", "docs/**"]);
});

test("a pattern in one pair of matching quotes loses them; other quotes stay", () => {
  assert.equal(readGlobList(`"src/**/*.ts", '*.md'`).patterns, ["src/**/*.ts", "*.md"]);
  assert.equal(readGlobList([`'it's/*.md'`, `"a'`, `'`, `""`]).patterns, ["it's/*.md", `"a'`, `'`, ""]);
  assert.equal(readGlobList([`"a\nb"`]).patterns, [`"a\nb"`]);
});

test("commas inside braces do not split a pattern", () => {
  assert.equal(readGlobList("src/{a,b}/**/*.{ts,tsx},*.md").patterns, ["src/{a,b}/**/*.{ts,tsx}", "*.md"]);
});

test("empty globs give no patterns", () => {
  assert.equal(readGlobList("").patterns, []);
  assert.equal(readGlobList(null).patterns, []);
  assert.equal(readGlobList(undefined).patterns, []);
  assert.equal(readGlobList(" , ").patterns, []);
});

test("a value of the wrong type is reported, not thrown", () => {
  const list = readGlobList(42);
  assert.equal(list.patterns, []);
  assert.match(list.problem!, /expected a string or a list of strings/);
});

test("a pattern without a slash matches the basename at any depth", () => {
  const match = compileGlobs(["*.tsx"], "");
  assert.is(match("Button.tsx"), "*.tsx");
  assert.is(match("packages/web/src/Button.tsx"), "*.tsx");
  assert.is(match("packages/web/src/Button.ts"), null);
});

test("a pattern with a slash is anchored at the folder that holds the rules", () => {
  const match = compileGlobs(["src/components/**/*.tsx"], "packages/web");
  assert.is(match("packages/web/src/components/Button.tsx"), "src/components/**/*.tsx");
  assert.is(match("src/components/Button.tsx"), null);
  assert.is(match("packages/api/src/components/Button.tsx"), null);
});

test("nested rules never match files outside their folder, even by basename", () => {
  const match = compileGlobs(["*.tsx"], "packages/web");
  assert.is(match("packages/api/x.tsx"), null);
  assert.is(match("packages/webapp/x.tsx"), null);
});

test("a !pattern excludes what the others match", () => {
  const match = compileGlobs(["**/*.test.ts", "!**/legacy/**"], "");
  assert.ok(match("src/a.test.ts"));
  assert.is(match("src/legacy/a.test.ts"), null);
});

test("braces, leading ./ and trailing / behave as a user means them", () => {
  assert.ok(compileGlobs(["src/{routes,handlers}/**/*.ts"], "")("src/handlers/user.ts"));
  assert.ok(compileGlobs(["./docs/*.md"], "")("docs/a.md"));
  assert.ok(compileGlobs(["generated/"], "")("generated/deep/x.ts"));
});

test("dot folders are matched by ** patterns", () => {
  assert.ok(compileGlobs([".github/**/*.yml"], "")(".github/workflows/ci.yml"));
  assert.ok(compileGlobs(["**/*.yml"], "")(".github/workflows/ci.yml"));
});

test("recognises patterns that match every file", () => {
  assert.ok(matchesEverything(["**"]));
  assert.ok(matchesEverything(["**/*"]));
  assert.not.ok(matchesEverything(["**/*.ts"]));
  assert.not.ok(matchesEverything(["**", "!dist/**"]));
});

test.run();
