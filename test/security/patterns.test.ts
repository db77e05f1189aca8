import { test } from "uvu";
import * as assert from "uvu/assert";
import { deadlineRuns } from "../helpers/timed-cli.js";
import { join } from "node:path";

/**
 * Issue 29 item 3: a repository's keyword patterns and globs can be built to backtrack for minutes, and nothing
 * stops a running regexp. Whatever the repository holds, a build and a hook answer within the hook's deadline.
 * Each run is killed after KILL_MS so that the code these tests were written against fails them quickly.
 */
const { tree, timed, withinDeadline } = deadlineRuns(test, "patterns");

const HANGING_PATTERN = "^(\\w+\\s?)*$";
// 53 characters: a backtracking engine tries 2^52 ways to split the run of letters before the "!" fails it.
const PROMPT = `${"a".repeat(52)}!`;
const keywordTree = () =>
  tree({
    ".ctxinjectrc.json": JSON.stringify({ keywords: { hang: { pattern: HANGING_PATTERN, content: "HANG MODE TEXT" } } }),
    "AGENTS.md": "# Agents\n\nBe brief.\n",
  });

test("a repository keyword pattern that backtracks forever answers a build with a prompt within the hook deadline", () => {
  const run = timed(["build", "--prompt", PROMPT, "--format", "json"], keywordTree());
  withinDeadline(run, "build --prompt");
  assert.not.match(run.stdout, "HANG MODE TEXT");
});

test("the same pattern answers `hook claude` on a prompt within the deadline", () => {
  const root = keywordTree();
  const run = timed(["hook", "claude"], root, JSON.stringify({ session_id: "p-1", cwd: root, hook_event_name: "UserPromptSubmit", prompt: PROMPT }));
  withinDeadline(run, "hook claude UserPromptSubmit");
  assert.not.match(run.stdout, "HANG MODE TEXT");
});

test("a configured pattern with quantifiers still fires where it matches", () => {
  const run = timed(["build", "--prompt", "deploy the thing now", "--format", "json"], keywordTree());
  withinDeadline(run, "build --prompt");
  const ids = (JSON.parse(run.stdout).entries as Array<{ id: string }>).map((e) => e.id);
  assert.ok(ids.includes("hang"), run.stdout);
});

test("a keyword pattern a linear-time engine cannot run is a warning naming the file and the key, and its mode stays quiet", () => {
  const root = tree({ ".ctxinjectrc.json": JSON.stringify({ keywords: { polite: { pattern: "(?<=please )deploy(?:ment)?", content: "POLITE MODE TEXT" } } }) });
  const run = timed(["build", "--prompt", "please deploy it", "--format", "json"], root);
  withinDeadline(run, "build --prompt");
  assert.match(run.stderr, ".ctxinjectrc.json");
  assert.match(run.stderr, "keywords.polite.pattern");
  assert.match(run.stderr, "lookaround");
  assert.not.match(run.stdout, "POLITE MODE TEXT");
});

// Fourteen `*a` (under the wildcard limit: run by the linear engine) against sixty `a` and a `b` that fails them.
const MANY_STARS = "*a".repeat(14);
const HOSTILE_NAME = `${"a".repeat(60)}b`;
const globTree = (glob: string) =>
  tree({
    ".cursor/rules/stars.mdc": `---\ndescription: stars\nglobs: "${glob}"\n---\nSTARS RULE TEXT\n`,
    [`src/${HOSTILE_NAME}`]: "x\n",
    [`src/${"a".repeat(60)}`]: "x\n",
  });

test("a rule glob of many `*a` against a long file name answers build --files within the deadline", () => {
  const root = globTree(MANY_STARS);
  const run = timed(["build", "--files", `src/${HOSTILE_NAME}`, "--format", "json"], root);
  withinDeadline(run, "build --files");
  assert.not.match(run.stdout, "STARS RULE TEXT");
  // The glob still works: a name it matches gets the rule.
  const hit = timed(["build", "--files", `src/${"a".repeat(60)}`, "--format", "json"], root);
  withinDeadline(hit, "build --files");
  assert.match(hit.stdout, "STARS RULE TEXT");
});

test("the same glob answers a hook's PostToolUse Read within the deadline", () => {
  const root = globTree(MANY_STARS);
  const event = { session_id: "g-1", cwd: root, hook_event_name: "PostToolUse", tool_name: "Read", tool_input: { file_path: join(root, "src", HOSTILE_NAME) } };
  const run = timed(["hook", "claude"], root, JSON.stringify(event));
  withinDeadline(run, "hook claude PostToolUse");
  assert.not.match(run.stdout, "STARS RULE TEXT");
});

test("a glob of eighteen `*a` is refused with a warning naming the rule file, its line and the glob", () => {
  const glob = "*a".repeat(18);
  const run = timed(["build", "--files", `src/${HOSTILE_NAME}`], globTree(glob));
  withinDeadline(run, "build --files");
  assert.match(run.stderr, ".cursor/rules/stars.mdc:3");
  assert.match(run.stderr, glob);
  assert.match(run.stderr, "18 wildcards");
});

test("a brace-bomb glob is refused within the deadline, with a warning", () => {
  const glob = "{a,a}".repeat(30);
  const root = tree({
    ".cursor/rules/braces.mdc": `---\nglobs: "${glob}"\n---\nBRACES RULE TEXT\n`,
    [`${"a".repeat(40)}b`]: "x\n",
  });
  const run = timed(["build", "--files", `${"a".repeat(40)}b`], root);
  withinDeadline(run, "build --files");
  assert.match(run.stderr, ".cursor/rules/braces.mdc");
  assert.match(run.stderr, "30 brace groups");
  assert.not.match(run.stdout, "BRACES RULE TEXT");
});

test("an `ignore` glob from the config that backtracks forever answers within the deadline", () => {
  const ruleName = `${"a".repeat(60)}b.mdc`;
  const root = tree({
    ".ctxinjectrc.json": JSON.stringify({ ignore: ["{a,a}".repeat(7) + "*a".repeat(6)] }),
    [`.cursor/rules/${ruleName}`]: `---\nalwaysApply: true\n---\nALWAYS RULE TEXT\n`,
  });
  const run = timed(["build"], root);
  withinDeadline(run, "build");
  assert.match(run.stdout, "ALWAYS RULE TEXT");
});

test.run();
