import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, git, materialize, REPO } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

// docs/coverage.md shows `coverage --format json` as it is (cut to a few entries): the shape drifted once (cells came
// to index into `items` and the page still showed files inline), so the page's example is held to the real output.

const doc = readFileSync(join(REPO, "docs/coverage.md"), "utf8");
const example = /^## The JSON\n[\s\S]*?^```json\n([\s\S]*?)^```$/m.exec(doc)?.[1];
type Json = Record<string, unknown>;

/** Whether `part` is `whole` with some entries of its lists left out (in order), `items` and `cells` from their start. */
function within(part: unknown, whole: unknown, at: string): void {
  if (Array.isArray(part)) {
    assert.ok(Array.isArray(whole), `${at}: a list in the page, ${JSON.stringify(whole)?.slice(0, 80)} in the output`);
    assert.ok(part.length > 0, `${at}: the page shows at least one entry`);
    if (at === "items" || at === "cells") {
      // Indexes point into these: the page shows them from index 0.
      assert.equal(part, whole.slice(0, part.length), `${at}: the page's entries are the output's first ${part.length}`);
      return;
    }
    let from = 0;
    for (const entry of part) {
      const found = whole.findIndex((real, i) => i >= from && JSON.stringify(real) === JSON.stringify(entry));
      assert.ok(found >= 0, `${at}: the page's ${JSON.stringify(entry)} is no entry of the output (after the one before it)`);
      from = found + 1;
    }
    return;
  }
  if (part !== null && typeof part === "object") {
    assert.ok(whole !== null && typeof whole === "object" && !Array.isArray(whole), `${at}: an object in the page, not in the output`);
    assert.equal(Object.keys(part), Object.keys(whole as Json), `${at}: the page's fields are the output's, in its order`);
    for (const [key, value] of Object.entries(part)) within(value, (whole as Json)[key], at === "" ? key : `${at}.${key}`);
    return;
  }
  assert.is(part, whole, at);
}

test.after.each(cleanup);

test("docs/coverage.md's JSON example is `coverage --format json` on fixtures/monorepo, field for field", async () => {
  assert.ok(example !== undefined, "docs/coverage.md has a ```json block under ## The JSON");
  const shown = JSON.parse(example) as Json;
  const dir = materialize("monorepo");
  git(dir, "commit", "-qm", "base");
  writeFileSync(join(dir, ".cursor/rules/web-only.mdc"), '---\nglobs: "packages/web/**"\n---\nEvery component has a story.\n');
  git(dir, "add", "-A");
  const r = await runMain(["coverage", "--format", "json", "--as", "cursor,claude", "--base", "HEAD"], { cwd: dir, env: { CTXINJECT_HOOK_SERVER: "0" } });
  assert.is(r.status, 0, r.stderr);
  // As the page says: compact, one line (a newline inside a string is written `\\n`).
  assert.ok(/printed compact, on one line/.test(doc), "docs/coverage.md says the JSON is compact");
  assert.is(r.stdout.indexOf("\n"), r.stdout.length - 1, "coverage --format json prints one line");
  const real = JSON.parse(r.stdout) as Json;
  // The project top is wherever the fixture was copied to.
  assert.is(typeof real.root, "string");
  within({ ...shown, root: real.root }, real, "");
});

test.run();
