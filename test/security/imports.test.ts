import { test } from "uvu";
import * as assert from "uvu/assert";
import { git } from "../helpers/cli.js";
import { deadlineRuns } from "../helpers/timed-cli.js";
import { expandImports, MAX_IMPORTED_CHARS } from "../../src/core/parse/imports.js";
import type { SourceFile, Warning } from "../../src/core/types.js";

/**
 * Issue 42 items 8 and 9: `@imports` a repository writes neither blow a text up (six files importing the next
 * sixteen times each: gigabytes, a crash) nor reach what is kept out of git (`@.env`), git's own folder or installed
 * packages. Each run is killed at four hook deadlines (test/helpers/timed-cli.ts) so that the code these tests were
 * written against fails them quickly.
 */
const runs = deadlineRuns(test, "imports");
const { timed, withinDeadline } = runs;

/** The files in a temp folder made a git repository (git, not the pipeline, says `.env` is ignored). */
function tree(files: Record<string, string>): string {
  const root = runs.tree(files);
  git(root, "init", "-q");
  return root;
}

/**
 * CLAUDE.md imports docs/a1.md sixteen times, a1 imports a2 sixteen times, … to a5 (as deep as imports nest): 16^5
 * copies of a5 when each import is inlined.
 */
function fanOut(): Record<string, string> {
  const files: Record<string, string> = { "CLAUDE.md": `# Project\n\n${Array(16).fill("See @docs/a1.md here.").join("\n")}\n` };
  for (let i = 1; i <= 4; i++)
    files[`docs/a${i}.md`] = `Level ${i} text.\n${Array(16)
      .fill(`See @a${i + 1}.md here.`)
      .join("\n")}\n`;
  files["docs/a5.md"] = "The bottom of the chain, with some words in it.\n";
  return files;
}

test("an import fan-out is bounded before it is expanded: the text never holds more than the cap of imported text, and a warning names the file", () => {
  const files = new Map<string, SourceFile>(Object.entries(fanOut()).map(([path, text]) => [path, { path, text }]));
  const warnings: Warning[] = [];
  let bodies = 0;
  const top = files.get("CLAUDE.md")!.text;
  const expanded = expandImports(
    top,
    "CLAUDE.md",
    files,
    (f) => (bodies++, f.text),
    (w) => void warnings.push(w),
  );
  assert.ok(expanded.text.length <= top.length + MAX_IMPORTED_CHARS, `${expanded.text.length} characters`);
  // Each file's text is worked out once, however often it is imported.
  assert.ok(bodies <= 5, `${bodies} bodies made`);
  assert.is(warnings.length, 1, JSON.stringify(warnings));
  assert.match(warnings[0]!.file ?? "", /^(CLAUDE\.md|docs\/a\d\.md)$/);
  assert.match(warnings[0]!.message, "left as written");
  assert.ok(warnings[0]!.line !== undefined && warnings[0]!.line > 1);
});

test("build on six files importing the next sixteen times each answers within the hook's deadline, with a warning, not a crash", () => {
  const root = tree(fanOut());
  const run = timed(["build"], root);
  assert.is(run.status, 0, run.stderr.slice(0, 400));
  withinDeadline(run, "build");
  assert.match(run.stdout, "The bottom of the chain");
  assert.match(run.stderr, /(CLAUDE|a\d)\.md:\d+: imports add more than/);
});

test("@.env (git-ignored), @.git/config and @node_modules/… are never expanded: a warning names the importing file and line", () => {
  const root = tree({
    ".gitignore": ".env\n",
    ".env": "DEPLOY_NOTE=env-file-marker-4711\n",
    "node_modules/pkg/README.md": "package-readme-marker-4712\n",
    "docs/style.md": "Style guide: short sentences.\n",
    "AGENTS.md": "# Rules\n\nRead @docs/style.md first.\nLocal settings: @.env\nRepository: @.git/config\nPackage: @node_modules/pkg/README.md\n",
  });
  const run = timed(["build", "--files", "src/a.ts"], root);
  assert.is(run.status, 0, run.stderr);
  assert.match(run.stdout, "Style guide: short sentences.");
  for (const marker of ["env-file-marker-4711", "package-readme-marker-4712", "repositoryformatversion"]) assert.not.match(run.stdout, marker);
  assert.match(run.stdout, "Local settings: @.env");
  assert.match(run.stderr, "AGENTS.md:4: @.env is not imported: git ignores it");
  assert.match(run.stderr, "AGENTS.md:5: @.git/config is not imported: it is inside .git");
  assert.match(run.stderr, "AGENTS.md:6: @node_modules/pkg/README.md is not imported: it is inside node_modules");
});

test.run();
