import { test } from "uvu";
import * as assert from "uvu/assert";
import picomatch from "picomatch";
import { stemmer } from "stemmer";
import { compileGlobs } from "../../src/core/parse/globs.js";
import { createWarm, READING_FORMAT } from "../../src/core/warm.js";

test("a glob compiled by an earlier run is not compiled again, and a damaged saved entry is compiled afresh", () => {
  const { regExp: warmRegExp, takeChanges: takeWarmChanges } = createWarm({
    globs: { "x:one": ["^one$", ""], "x:bad": ["(", ""], "x:odd": [1 as never, ""] },
    stems: {},
  });
  let compiled = 0;
  const compile = () => {
    compiled++;
    return /^fresh$/;
  };
  assert.ok(warmRegExp("x:one", compile).test("one"));
  assert.is(compiled, 0);
  assert.ok(warmRegExp("x:bad", compile).test("fresh"), "a source that does not compile");
  assert.ok(warmRegExp("x:odd", compile).test("fresh"), "an entry of the wrong shape");
  assert.is(compiled, 2);
  const changes = takeWarmChanges();
  assert.equal(changes?.globs["x:bad"], ["^fresh$", ""]);
  assert.is(takeWarmChanges(), null, "nothing new since");
});

test("a text's fingerprint saved by an earlier run is not worked out again; a damaged one, a long text or a full file is", () => {
  let hashed = 0;
  const hash = () => (hashed++, "0123456789abcdef0123456789ab");
  const saved = createWarm({ globs: {}, stems: {}, hashes: { "Use strict TypeScript.": "ffffffffffffffffffffffffffff", damaged: "not a hash" } });
  assert.is(saved.hash("Use strict TypeScript.", hash), "ffffffffffffffffffffffffffff");
  assert.is(hashed, 0);
  assert.is(saved.hash("damaged", hash), "0123456789abcdef0123456789ab");
  assert.is(saved.hash("new text", hash), "0123456789abcdef0123456789ab");
  assert.is(saved.hash("new text", hash), "0123456789abcdef0123456789ab");
  assert.is(hashed, 2);
  const next = saved.takeChanges();
  assert.equal(next?.hashes, {
    "Use strict TypeScript.": "ffffffffffffffffffffffffffff",
    damaged: "0123456789abcdef0123456789ab",
    "new text": "0123456789abcdef0123456789ab",
  });
  // A text longer than what is kept is hashed every time.
  const long = "x".repeat(8_001);
  const fresh = createWarm();
  fresh.hash(long, hash);
  fresh.hash(long, hash);
  assert.is(hashed, 4);
  assert.is(fresh.takeChanges(), null);
});

test("stems come from earlier runs where known, and new ones are kept for the next", () => {
  const { stem: warmStem, takeChanges: takeWarmChanges } = createWarm({ globs: {}, stems: { migrations: "saved-stem" } });
  const stem = warmStem(stemmer);
  assert.is(stem("migrations"), "saved-stem");
  assert.is(stem("databases"), stemmer("databases"));
  assert.is(takeWarmChanges()?.stems.databases, stemmer("databases"));
});

test("globs matched through picomatch's regexp answer exactly as picomatch's own matcher does", () => {
  const patterns = [
    "*.ts",
    "*.{ts,tsx}",
    "src/**",
    "src/**/*.ts",
    "**/*.test.ts",
    "!**/legacy/**",
    "docs/*.md",
    ".github/**/*.yml",
    "**/api/**",
    "a/[bc]/*.js",
  ];
  const paths = [
    "x.ts",
    "src/a.ts",
    "src/deep/b.tsx",
    "src/.hidden/c.ts",
    "lib/x.test.ts",
    "legacy/y.test.ts",
    "docs/a.md",
    "docs/sub/b.md",
    ".github/workflows/ci.yml",
    "pkg/api/h.ts",
    "a/b/z.js",
    "a/d/z.js",
    "README.md",
  ];
  for (const pattern of patterns.filter((p) => !p.startsWith("!"))) {
    const oracle = picomatch(pattern, { dot: true, basename: !pattern.includes("/") });
    const matcher = compileGlobs([pattern], "");
    for (const path of paths) assert.is(matcher(path) !== null, oracle(path), `${pattern} on ${path}`);
  }
});

test("what is kept stays small: past its size nothing more is taken in, and every answer is still right", () => {
  const big = { globs: {}, stems: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`word${i}`, `stem${i}`])) };
  const { regExp: warmRegExp, stem: warmStem, takeChanges: takeWarmChanges } = createWarm(big);
  let asked = 0;
  const stem = warmStem((word) => {
    asked++;
    return `stem${word.slice(4)}`;
  });
  for (let i = 0; i < 20_000; i++) assert.is(stem(`word${i}`), `stem${i}`);
  assert.is(asked, 0, "every saved stem answers");
  for (let i = 20_000; i < 20_100; i++) assert.is(stem(`word${i}`), `stem${i}`);
  assert.is(asked, 100);
  assert.is(takeWarmChanges(), null, "full: nothing new kept");
  assert.is(warmRegExp("x:late", () => /^late$/).source, "^late$", "compiled, not kept");
});

test("saved entries of the wrong shape are not answers, and are left out of what is saved next", () => {
  const { stem: warmStem, takeChanges: takeWarmChanges } = createWarm({
    globs: {},
    stems: { good: "goo", bad: 7 as never, ["__proto__" as string]: "x" },
    frontmatter: { "a: 1": { data: { a: 1 }, warnings: [] }, "b: 2": { data: "no" } as never },
    readings: READING_FORMAT,
  });
  const stem = warmStem((word) => `fresh-${word}`);
  assert.is(stem("good"), "goo");
  assert.is(stem("bad"), "fresh-bad");
  assert.is(stem("constructor"), "fresh-constructor", "not a property every object has");
  const next = takeWarmChanges()!;
  assert.equal(Object.keys(next.stems).sort(), ["__proto__", "bad", "constructor", "good"].sort());
  assert.is(next.stems.bad, "fresh-bad");
  assert.equal(Object.keys(next.frontmatter!), ["a: 1"]);
  assert.is(Object.getPrototypeOf(next.stems), Object.prototype);
});

test("frontmatter readings saved in another format (an earlier version's) are read again, and what is saved next is this version's", () => {
  const saved = { globs: {}, stems: {}, frontmatter: { "globs: *.ts": { data: { globs: "*.ts" }, warnings: [{ line: 2, message: "not strict YAML" }] } } };
  const fresh = { data: { globs: "*.ts" }, warnings: [{ line: 2, message: "not strict YAML", kind: "frontmatter-yaml" as const }] };
  const old = createWarm(saved);
  assert.equal(
    old.frontmatter("globs: *.ts", () => fresh),
    fresh,
  );
  const next = old.takeChanges()!;
  assert.equal(next.frontmatter, { "globs: *.ts": fresh });
  assert.is(next.readings, READING_FORMAT);
  let read = 0;
  assert.equal(
    createWarm(next).frontmatter("globs: *.ts", () => (read++, fresh)),
    fresh,
  );
  assert.is(read, 0, "this version's reading is reused");
});

test.run();
