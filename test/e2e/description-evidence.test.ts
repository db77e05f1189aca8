import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

test.after(cleanup);

const API_FILE = "server/api/orders.ts";
const LIKELY = "## Likely relevant";
const likelyPart = (stdout: string) => {
  const at = stdout.indexOf(LIKELY);
  return at < 0 ? "" : stdout.slice(at, stdout.indexOf("\n## ", at + 1) >>> 0);
};

// Issue 44 item 6: the likely tier is for what the user asked; a target's path words are not a request.
test("with no prompt there is no likely tier: a skill whose description shares a target's path word stays in the plain index", async () => {
  const root = materialize("description-evidence");
  const { status, stdout, stderr } = await runMain(["build", "--files", API_FILE], { cwd: root });
  assert.is(status, 0, stderr);
  assert.not.match(stdout, LIKELY);
  assert.match(stdout, "- `.claude/skills/git-commit/SKILL.md` (");
  const explained = await runMain(["explain", "--files", API_FILE], { cwd: root });
  assert.not.match(explained.stdout, "likely relevant");
});

test("a path the prompt names brings no skill into the likely tier by its words alone", async () => {
  const root = materialize("description-evidence");
  const { status, stdout, stderr } = await runMain(["build", "--prompt", `rename the helper in ${API_FILE}`], { cwd: root });
  assert.is(status, 0, stderr);
  assert.not.match(likelyPart(stdout), "git-commit");
  assert.match(stdout, "- `.claude/skills/git-commit/SKILL.md` (");
});

test("the prompt's own words still make the likely tier", async () => {
  const root = materialize("description-evidence");
  const { status, stdout, stderr } = await runMain(["build", "--files", API_FILE, "--prompt", "split this change into commits for the server and the docs"], {
    cwd: root,
  });
  assert.is(status, 0, stderr);
  assert.match(stdout, "git-commit");
  assert.not.match(stdout, "(rule-legacy-models)");
});

// Issue 44 item 7: a rule's description is evidence too when its globs match no target.
test("a glob rule with a description is offered for a prompt that names no file, and for one whose target its globs miss", async () => {
  const root = materialize("description-evidence");
  const prompt = "migrate the legacy invoice model to the new BaseModel class";
  for (const args of [
    ["--prompt", prompt],
    ["--prompt", prompt, "--files", API_FILE],
  ]) {
    const { status, stdout, stderr } = await runMain(["build", ...args], { cwd: root });
    assert.is(status, 0, stderr);
    assert.match(stdout, "(rule-legacy-models)", args.join(" "));
  }
  const explained = await runMain(["explain", "--as", "cursor", "--prompt", prompt], { cwd: root });
  assert.match(explained.stdout, /included +\d+ +- +\.cursor\/rules\/legacy-models\.mdc/, "Cursor applies it by its globs only: it does not have it here");
  // With no prompt it waits in the index, named with its description.
  const quiet = await runMain(["build", "--files", API_FILE], { cwd: root });
  assert.match(quiet.stdout, "- `.cursor/rules/legacy-models.mdc` (60 tokens): Guidance for migrating legacy back-end models to the BaseModel class");
});

test.run();
