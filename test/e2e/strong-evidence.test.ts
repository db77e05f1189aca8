import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

test.after(cleanup);

// Issue 45 item 1: what injected a description-only rule, or kept it out, is named in explain's words.
const explain = async (prompt: string) => {
  const root = materialize("strong-evidence");
  const { status, stdout, stderr } = await runMain(["explain", "--prompt", prompt, "--min-relevance", "0.05"], { cwd: root });
  assert.is(status, 0, stderr);
  return stdout.replace(/\s+/g, " ");
};

test("explain names the trigger its author wrote that injected a skill", async () => {
  const out = await explain("ok, let's commit");
  assert.match(out, /included .*\.claude\/skills\/git-commit\/SKILL\.md/);
  assert.match(out, `the prompt says "let's commit", a trigger its author wrote`);
});

test("explain names the two words of a description that injected a rule, and says why one word is not enough", async () => {
  const two = await explain("add a feature flag for the new checkout page");
  assert.match(two, /the prompt says (feature, flag|flag, feature) of its name or description/);
  const one = await explain("trivy flags critical CVEs in the base image");
  assert.match(one, "fewer than two words of its name or description are the prompt's own, and no trigger its author wrote: not enough to inject");
});

test("explain says a rule whose body alone the prompt names is not injected", async () => {
  const out = await explain("flag this PR for review by the platform team");
  assert.not.match(out, /included .*terraform\.mdc/);
  assert.match(out, "no word of its name, description or triggers is the prompt's own: not enough to inject");
});

test.run();
