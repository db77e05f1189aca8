import { test } from "uvu";
import * as assert from "uvu/assert";
import { renderDigest } from "../../src/core/render/digest.js";

test("a digest lists what was in force and gives critical instructions in full", () => {
  const out = renderDigest(
    [
      { name: ".cursor/rules/general.mdc", priority: "normal" },
      { name: "packages/api/.cursor/rules/handlers.mdc", priority: "critical", content: "Handlers validate input first." },
      { name: "docs/kord/rules/review.md", priority: "high" },
    ],
    2000,
  );
  assert.match(out, "## Instructions in force before this conversation was compacted");
  assert.match(out, "### packages/api/.cursor/rules/handlers.mdc (critical)\n\nHandlers validate input first.");
  assert.match(out, "- .cursor/rules/general.mdc\n");
  assert.match(out, "- docs/kord/rules/review.md (high)");
});

test("a digest stays within its budget, saying how many it left out", () => {
  const items = Array.from({ length: 200 }, (_, i) => ({ name: `packages/p${i}/AGENTS.md`, priority: "normal" }));
  const out = renderDigest(items, 600);
  assert.ok(out.length <= 600, String(out.length));
  assert.match(out, /- … and \d+ more/);
  assert.is(renderDigest([], 600), "");
});

test.run();
