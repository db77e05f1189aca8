import { test } from "uvu";
import * as assert from "uvu/assert";
import { textChecks } from "../../src/core/doctor/text-checks.js";
import { PATTERN_REDACTIONS, type TestedText } from "../../src/core/redact.js";
import { createRunMemo } from "../../src/core/run-memo.js";
import { select } from "../helpers/tree.js";

const SECRET = "Deploy with token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB.\n";

test("doctor takes select's credential test of the same text instead of testing it again", () => {
  const file = { path: "AGENTS.md", text: SECRET };
  // A recorded answer for this very text is taken as it is (here: nothing found, so no finding).
  const same = new Map<string, TestedText>([["AGENTS.md", { text: SECRET, redactions: [] }]]);
  assert.equal(
    textChecks(file, false, "codex", same).filter((f) => f.kind === "secret"),
    [],
  );
  // One for another text of the path (hidden characters stripped first) is not: doctor tests the file's own text.
  const other = new Map<string, TestedText>([["AGENTS.md", { text: "other", redactions: [] }]]);
  assert.equal(
    textChecks(file, false, "codex", other).map((f) => [f.kind, f.line]),
    [["secret", 1]],
  );
});

test("select's --all over many files records each file's credential test in the run's memo, doctor's findings unchanged", () => {
  const tree: Record<string, string> = { "AGENTS.md": SECRET };
  for (let i = 0; i < 70; i++) tree[`packages/p${i}/AGENTS.md`] = `# Package ${i}\nKeep it small.\n`;
  const memo = createRunMemo();
  select(tree, { all: true, memo });
  const tested = memo.get(PATTERN_REDACTIONS);
  assert.is(tested.size, 71);
  assert.equal(
    tested.get("AGENTS.md")!.redactions.map((r) => r.line),
    [1],
  );
  const fromSelect = textChecks({ path: "AGENTS.md", text: SECRET }, false, "codex", tested);
  assert.equal(fromSelect, textChecks({ path: "AGENTS.md", text: SECRET }, false, "codex"));
  assert.is(fromSelect.filter((f) => f.kind === "secret").length, 1);
});

test.run();
