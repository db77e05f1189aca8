import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanup, materialize, runCli } from "../helpers/cli.js";

// fixtures/cursor-glob-shapes: the glob shapes Cursor rules are written with, and a header block never closed.
test.after(cleanup);

interface Candidate {
  id: string;
  status: string;
  description?: string;
  globs?: string[];
}
const explain = (root: string, file: string): Record<string, Candidate> =>
  Object.fromEntries(
    (JSON.parse(runCli(["explain", "--json", "--files", file], { cwd: root }).stdout).candidates as Candidate[]).map((c) => [c.id.replace(".cursor/rules/", ""), c]),
  );

test("unquoted comma-separated globs still apply, with the description intact, and the file is named with its line", () => {
  const root = materialize("cursor-glob-shapes");
  const rule = explain(root, "src/app.ts")["strict-types.mdc"]!;
  assert.is(rule.status, "included");
  assert.is(rule.description, "Type-safety conventions");
  assert.equal(rule.globs, ["*.ts", "*.tsx"]);
  const { stdout, stderr } = runCli(["build", "--files", "src/app.ts"], { cwd: root });
  assert.match(stderr, "ctxinject: warning: .cursor/rules/strict-types.mdc:3: frontmatter is not strict YAML");
  assert.match(stdout, "Public functions take and return `readonly` arrays.");
  assert.not.match(stdout, "warning");
});

test("a header block never closed is a warning naming file and line, and the rule is kept as a manual one", () => {
  const root = materialize("cursor-glob-shapes");
  const { stderr } = runCli(["build", "--files", "src/app.ts"], { cwd: root });
  assert.match(stderr, "ctxinject: warning: .cursor/rules/unclosed.mdc:1: frontmatter opened with --- is never closed");
  assert.is(explain(root, "src/app.ts")["unclosed.mdc"]!.status, "manual");
  assert.match(runCli(["build", "--rule", "unclosed"], { cwd: root }).stdout, "Keep each paragraph to one idea.");
});

test("a !pattern in an inline list keeps a rule away from the excluded folder", () => {
  const root = materialize("cursor-glob-shapes");
  assert.is(explain(root, "src/app.spec.ts")["specs.mdc"]!.status, "included");
  assert.is(explain(root, "src/archive/old.spec.ts")["specs.mdc"]!.status, "unmatched");
});

test("braces in a quoted glob and a block list of globs both match", () => {
  const root = materialize("cursor-glob-shapes");
  const scss = explain(root, "src/theme.scss");
  assert.is(scss["stylesheets.mdc"]!.status, "included");
  assert.is(scss["tokens.md"]!.status, "included");
  assert.equal(scss["tokens.md"]!.globs, ["**/*.scss", "**/*.less"]);
  const ts = explain(root, "src/app.ts");
  assert.is(ts["stylesheets.mdc"]!.status, "unmatched");
  assert.is(ts["tokens.md"]!.status, "unmatched");
});

test.run();
