import { test } from "uvu";
import * as assert from "uvu/assert";
import { textChecks } from "../../src/core/doctor/text-checks.js";

test("a file's tag is asked once, on its first finding, and never for a clean file; the findings are those of the tag given as a string", () => {
  let asked = 0;
  const tag = () => (asked++, "codex");
  assert.equal(textChecks({ path: "AGENTS.md", text: "Use pnpm.\n" }, false, tag), []);
  assert.is(asked, 0, "a clean file asks no agent's loader");
  const file = { path: "AGENTS.md", text: "Deploy with ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8\u202E and ask.\n" };
  const findings = textChecks(file, false, tag);
  assert.is(asked, 1);
  assert.equal(
    findings.map((f) => f.kind),
    ["hidden-characters", "secret"],
  );
  assert.equal(findings, textChecks(file, false, "codex"));
});

test.run();
