import { test } from "uvu";
import * as assert from "uvu/assert";
import { editDistance, nearestName } from "../../src/core/nearest-name.js";

test("the nearest name is a small edit away, or there is none", () => {
  assert.is(nearestName("userz.ts", ["users.ts", "orders.ts", "index.ts"]), "users.ts");
  assert.is(nearestName("handler", ["handlers", "routes"]), "handlers");
  assert.is(nearestName("qeuries", ["queries", "models"]), "queries", "a swap of two letters is one edit");
  assert.is(nearestName("completely-different.ts", ["user.ts"]), null);
  assert.is(nearestName("a.ts", []), null);
});

test("edit distance counts insertions, deletions, substitutions and adjacent swaps", () => {
  assert.is(editDistance("kitten", "sitting"), 3);
  assert.is(editDistance("ab", "ba"), 1);
  assert.is(editDistance("", "abc"), 3);
  assert.is(editDistance("same", "same"), 0);
});

test.run();
