import { test } from "uvu";
import * as assert from "uvu/assert";
import { select } from "../helpers/tree.js";

/**
 * Issue 42: a hook's deadline is checked inside the work a repository can make long (reading, redaction, dedup),
 * and the answer at the deadline is what was found by then, never nothing, and never a text that was not checked for
 * credentials. The core reads no clock: the deadline comes in as a signal (io/deadline.ts makes it from hookDeadlineMs).
 */

/** A signal that says "passed" from its `after`-th question on, counting the questions. */
function stopAfter(after: number) {
  const signal = { asked: 0, passed: () => ++signal.asked > after, note: "stopped at the 1500 ms deadline (config hookDeadlineMs)" };
  return signal;
}

const TOKEN = `ghp_${"Q7hZk2Lm9Xp4Rt8Vw3Nc6Yb1Jd5Fg0Ks1234"}`;

test("past the deadline, redaction stops between files: the files checked are sent, those not checked are left out, never sent as they are", () => {
  const tree: Record<string, string> = {};
  // Each file holds a credential's hint, so each is redacted; the last holds a token.
  for (let i = 0; i < 100; i++)
    tree[`.cursor/rules/r${String(i).padStart(3, "0")}.mdc`] = `---\nalwaysApply: true\n---\nRule ${i}: the api token is read from the environment.\n`;
  tree[".cursor/rules/zz-last.mdc"] = `---\nalwaysApply: true\n---\nDeploy with ${TOKEN}.\n`;
  const stop = stopAfter(0);
  const selection = select(tree, { targets: ["src/a.ts"], stop });
  const sent = selection.entries.map((e) => e.content).join("\n");
  assert.not.match(sent, TOKEN);
  assert.ok(selection.entries.length >= 32, `${selection.entries.length} entries: the least is always done`);
  assert.ok(selection.entries.length < 100, `${selection.entries.length} entries: redaction went on past the deadline`);
  assert.ok(
    selection.candidates.every((c) => c.path !== ".cursor/rules/zz-last.mdc"),
    "a file not redacted was drafted",
  );
  assert.ok(
    selection.warnings.some((w) =>
      /stopped at the 1500 ms deadline \(config hookDeadlineMs\): \d+ of 101 files not checked for credentials in time, left out/.test(w.message),
    ),
    JSON.stringify(selection.warnings.map((w) => w.message)),
  );
});

test("past the deadline, dedup stops comparing: every rule is still sent, and a warning says copies may be", () => {
  const common = Array.from({ length: 6 }, (_, i) => `Common guideline number ${i} says to keep the code tidy and small.`).join("\n");
  const tree: Record<string, string> = {};
  for (let i = 0; i < 3000; i++) tree[`.cursor/rules/r${i}.mdc`] = `---\nalwaysApply: true\n---\nRule ${i} begins here.\n${common}\nRule ${i} ends here.\n`;
  const stop = stopAfter(3);
  // Redaction off: its questions between files would stop the run before dedup's turn.
  const selection = select(tree, { targets: ["src/a.ts"], stop, configure: (c) => void (c.redact = false) });
  assert.ok(stop.asked > 3, "dedup never asked the deadline");
  assert.is(selection.candidates.filter((c) => c.status === "included" || c.status === "duplicate").length, 3000);
  assert.ok(
    selection.warnings.some((w) => w.message === "stopped at the 1500 ms deadline (config hookDeadlineMs): texts not compared for copies are sent as they are"),
  );
});

test.run();
