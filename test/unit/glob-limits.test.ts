import { test } from "uvu";
import * as assert from "uvu/assert";
import { globProblem, globShape, isSimpleGlob, MAX_GLOB_WILDCARDS } from "../../src/core/parse/glob-limits.js";
import { compileGlobs } from "../../src/core/parse/globs.js";
import { backtracksLittle } from "../../src/core/prompt/keywords.js";

const lot = (glob: string) => {
  const shape = globShape(glob);
  return globProblem(shape) !== null ? "refused" : isSimpleGlob(shape) ? "simple" : "linear";
};

test("the globs rules usually hold stay on picomatch's own regexp", () => {
  for (const glob of ["*.ts", "src/**/*.ts", "**/*.{ts,tsx}", "apps/front-*/src/**", "packages/**", ".github/**/*.yml", "src/?/x.ts"])
    assert.is(lot(glob), "simple", glob);
});

test("richer globs go to the linear-time engine", () => {
  for (const glob of ["**/*.test.*", "**/api/**/*", "src/{a,b}/**/*.{ts,tsx}", "+(*a)", "*a*a*a", "{a,b}{c,d}"]) assert.is(lot(glob), "linear", glob);
});

test("globs past the limits are refused, each with its reason", () => {
  assert.match(globProblem(globShape("*a".repeat(18)))!, "18 wildcards");
  assert.is(globProblem(globShape("*a".repeat(MAX_GLOB_WILDCARDS))), null);
  assert.match(globProblem(globShape("{a,a}".repeat(9)))!, "9 brace groups");
  assert.match(globProblem(globShape("{{{{a}}}}"))!, "nest 4 deep");
  assert.match(globProblem(globShape("a".repeat(513)))!, "longer than 512");
  assert.match(globProblem(globShape("+(a)".repeat(9)))!, "9 extglob groups");
});

test("a `**` counts once, a run of stars inside a segment counts once, an escaped star not at all", () => {
  assert.equal(globShape("a/**/b").globstars, 1);
  assert.equal(globShape("a/**/b").wildcards, 1);
  assert.equal(globShape("a**b").wildcards, 1);
  assert.equal(globShape("a**b").globstars, 0);
  assert.equal(globShape("a\\*b").wildcards, 0);
});

test("a refused glob matches nothing and is reported once per compile", () => {
  const told: string[] = [];
  const glob = "*a".repeat(18);
  const matcher = compileGlobs([glob], "", { refused: (p, reason) => told.push(`${p}: ${reason}`) });
  assert.is(matcher("a".repeat(60)), null);
  assert.equal(told, [`${glob}: it has 18 wildcards (at most 16 are matched)`]);
});

test("without a linear engine a rich glob matches nothing and says why; simple ones still match", () => {
  const told: string[] = [];
  const matcher = compileGlobs(["**/*.test.*", "src/**/*.ts"], "", { refused: (p) => told.push(p) });
  assert.is(matcher("a/b.test.ts"), null);
  assert.is(matcher("src/a.ts"), "src/**/*.ts");
  assert.equal(told, ["**/*.test.*"]);
});

test("keyword patterns that cannot backtrack far stay native; the rest need the linear engine", () => {
  for (const p of ["\\bdeploy\\b", "\\b(?:deploy|release|ship)\\b", "(?:^|\\n)\\[review\\]", "[*+?]x", "a\\*b", "(?<=please )ship"])
    assert.ok(backtracksLittle(p), p);
  for (const p of ["^(\\w+\\s?)*$", "a+", "a?b", "\\(?x", "a{2}", "(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)"]) assert.not.ok(backtracksLittle(p), p);
});

test.run();
