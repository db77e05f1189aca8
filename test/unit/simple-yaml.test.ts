import { test } from "uvu";
import * as assert from "uvu/assert";
import { parseStrictYaml } from "../../src/core/parse/frontmatter.js";
import { readSimpleYaml } from "../../src/core/parse/simple-yaml.js";

const AGREE = [
  "description: TypeScript conventions\nalwaysApply: false",
  "globs: src/**/*.ts\nalwaysApply: true",
  'description: "Quoted: with colon"\nglobs: "*.tsx"',
  "description: 'single'\npriority: high",
  'paths:\n  - "packages/web/**"\n  - src/**/*.css',
  "applyTo:\n  - '.github/**/*.yml'",
  "globs:\ndescription: empty globs above",
  "description: Writing and applying database migrations safely",
  "count: 42\nzero: 0",
  "description: Hono gateway Worker rules - middleware order, observability, zValidator.",
  "description: a (parenthesised) note, with commas",
  "name: ultra-work_mode",
  'globs: ["**/*.test.ts", "!**/legacy/**"]',
  "globs: ['a/*.ts', b/c.md]",
  "globs: []",
  'paths: ["src/{a,b}/**"]',
];

const REFUSED = [
  "description: Foo: bar",
  "description: yes",
  "description: null",
  "version: 1.2",
  "date: 2024-01-01",
  "globs: [a, [b]]",
  "globs: [a: b]",
  "globs: [yes, no]",
  "globs: [a, b",
  "description: >\n  folded",
  "description: x # comment",
  "# a comment\ndescription: x",
  "a: 1\na: 2",
  "description: one\n  continued",
  'description: "escaped \\" quote"',
  "list:\n\t- tab",
  "description: ~",
  "description: @mention",
  "description: !tag",
  "key: 0777",
  "key: -1",
];

test("inside the subset the fast path gives exactly what strict YAML gives", () => {
  for (const raw of AGREE) {
    const fast = readSimpleYaml(raw);
    assert.ok(fast !== null && "data" in fast, `should be simple: ${JSON.stringify(raw)}`);
    assert.equal(fast.data, parseStrictYaml(raw), raw);
  }
});

test("anything outside the subset is left to YAML", () => {
  for (const raw of REFUSED) assert.is(readSimpleYaml(raw), null, JSON.stringify(raw));
});

test("an unquoted * value is a certain YAML failure: the fast path names its line without loading YAML", () => {
  for (const raw of ["description: TS\nglobs: *.ts,*.tsx\nalwaysApply: false", "globs:\n  - *.md"]) {
    const fast = readSimpleYaml(raw);
    assert.ok(fast !== null && "aliasLine" in fast, raw);
    assert.throws(() => parseStrictYaml(raw), /alias/);
  }
  assert.is(readSimpleYaml("anchor: &a x\nref: *a"), null, "with anchors, YAML decides");
});

test("generated simple frontmatter agrees with YAML", () => {
  const words = ["alpha", "src/**/*.ts", "Use strict mode.", "a-b_c", "**/*.{ts,tsx}", "x.y", "Writing tests", "UPPER", "docs/", "a, b"];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!;
  let refused = 0;
  for (let n = 0; n < 300; n++) {
    const lines: string[] = [];
    const keys = ["description", "globs", "paths", "applyTo", "alwaysApply", "priority", "name"].filter(() => next() < 0.5);
    for (const key of keys) {
      const shape = next();
      if (shape < 0.2) lines.push(`${key}: ${pick(["true", "false", "3"])}`);
      else if (shape < 0.4) lines.push(`${key}:`, ...Array.from({ length: 1 + Math.floor(next() * 3) }, () => `  - "${pick(words)}"`));
      else if (shape < 0.6) lines.push(`${key}: '${pick(words)}'`);
      else lines.push(`${key}: ${pick(words)}`);
    }
    const raw = lines.join("\n");
    const fast = readSimpleYaml(raw);
    if (fast === null || !("data" in fast)) {
      refused++;
      continue;
    }
    assert.equal(fast.data, parseStrictYaml(raw) ?? {}, raw);
  }
  // The fast path read most of them itself (each then compared with YAML): a fast path that gave up on all would pass the loop.
  assert.ok(refused <= 100, `the fast path left ${refused} of 300 to YAML`);
});

test.run();
