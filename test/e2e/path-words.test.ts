import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

test.after(cleanup);

const statuses = async (root: string, args: string[], input = "") => {
  const { status, stdout, stderr } = await runMain(["explain", "--json", ...args], { cwd: root, input });
  assert.is(status, 0, stderr);
  return Object.fromEntries((JSON.parse(stdout) as { candidates: Array<{ id: string; status: string }> }).candidates.map((c) => [c.id, c.status]));
};

test("words every path shares (packages, src, .ts) are no evidence: a rule that only shares them stays in the index", async () => {
  const root = materialize("path-words");
  const byTarget = await statuses(root, ["--files", "packages/ui/src/button.ts"]);
  assert.is(byTarget[".cursor/rules/figma-essential-rules.mdc"], "below-threshold");
  const byPrompt = await statuses(root, [], "tidy up packages/ui/src/button.ts");
  assert.is(byPrompt[".cursor/rules/figma-essential-rules.mdc"], "below-threshold");
});

// Issue 45: a path's topic words are evidence (a score, explain's words), never enough to inject by themselves.
test("a topic word in a path still is evidence, though path words alone never inject", async () => {
  const root = materialize("path-words");
  const { stdout } = await runMain(["explain", "--json", "--files", "packages/payments/src/refund.ts"], { cwd: root });
  const rows = (JSON.parse(stdout) as { candidates: Array<{ id: string; status: string; reason: string }> }).candidates;
  const payments = rows.find((r) => r.id === ".cursor/rules/payments.mdc")!;
  assert.is(payments.status, "below-threshold");
  assert.match(
    payments.reason,
    /^relevance 0\.\d\d (\(0\.\d\d with related words\) )?>= 0\.35 \((payments, refund|refund, payments)\), but its words come from paths only, not from words the user wrote: not enough to inject/,
  );
  const s = await statuses(root, ["--files", "packages/payments/src/refund.ts", "--prompt", "refunds are charged twice"]);
  assert.is(s[".cursor/rules/payments.mdc"], "included");
  assert.is(s[".cursor/rules/figma-essential-rules.mdc"], "below-threshold");
});

test.run();
