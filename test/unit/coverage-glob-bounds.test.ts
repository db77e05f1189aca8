import { test } from "uvu";
import * as assert from "uvu/assert";
import { globBounds } from "../../src/core/coverage/glob-bounds.js";
import { compileGlobs } from "../../src/core/parse/globs.js";

// coverage counts a rule only over the files within its globs' bounds: a file a glob matches outside them would be
// left out of the rule's count. Every pattern shape here, at the top and below a folder, against paths near its edges.
const PATTERNS = [
  "src/**",
  "src/**/*.ts",
  "**/*.ts",
  "*.ts",
  "packages/**",
  ".github/**/*.yml",
  "**/AGENTS.md",
  "a/b",
  "a/b/",
  "a/**/b",
  "{a,b}/x.ts",
  "a/*.{ts,tsx}",
  "a/b?c",
  "a/!(x)",
  "**",
  "*",
  "a/[bc]/d",
  "a/+(b)/c.md",
  "./src/x.ts",
  "/src/**",
  "src\\lib\\*.ts",
  "a.ts",
  "**/*.test.ts",
  "docs/",
  "x/**/y/**/z.md",
  '"a"/b',
  "a b/*.md",
  "src/*",
];
const PATHS = [
  "src",
  "src/x.ts",
  "src/a/b.tsx",
  "x.ts",
  "a/x.ts",
  "packages/p/x.yml",
  ".github/w/ci.yml",
  ".github/ci.yml",
  "AGENTS.md",
  "a/AGENTS.md",
  "a/b",
  "a/c/b",
  "a/x/y/b",
  "b/x.ts",
  "a/x.tsx",
  "a/bxc",
  "a/y",
  "a/x",
  "a/b/d",
  "a/c/d",
  "a/b/c.md",
  "src/lib/q.ts",
  "a.ts",
  "q/a.test.ts",
  "docs/x",
  "docs",
  "x/y/z.md",
  "x/q/y/r/z.md",
  "src/.hidden.ts",
  ".ts",
  "a b/c.md",
  "srcx/y",
];

test("every path a glob matches lies within its bounds", () => {
  let matched = 0;
  for (const pattern of PATTERNS) {
    for (const anchor of ["", "a", "src"]) {
      const match = compileGlobs([pattern], anchor);
      const under = anchor === "" ? "" : `${anchor}/`;
      const bounds = globBounds([pattern]);
      for (const path of PATHS.map((p) => under + p)) {
        if (match(path) === null) continue;
        matched++;
        assert.ok(
          bounds.some((b) => path.startsWith(under + b.start) && path.endsWith(b.end)),
          `${pattern} at "${anchor}" matches ${path}, outside ${JSON.stringify(bounds)}`,
        );
      }
    }
  }
  assert.ok(matched > 100, `only ${matched} matches: the check proves little`);
});

test("bounds are the literal ends: a path outside them is not tested", () => {
  assert.equal(globBounds(["packages/**"]), [{ start: "packages", end: "" }]);
  assert.equal(globBounds([".github/**/*.yml"]), [{ start: ".github", end: ".yml" }]);
  assert.equal(globBounds(["**/*.test.ts"]), [{ start: "", end: ".test.ts" }]);
  assert.equal(globBounds(["*.ts", "!x.ts"]), [{ start: "", end: ".ts" }]);
  assert.equal(globBounds(["!x.ts"]), []);
});

test.run();
