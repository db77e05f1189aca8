import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

// fixtures/cursor-glob-shapes: the glob shapes Cursor rules are written with, and a header block never closed.
test.after(cleanup);

interface Candidate {
  id: string;
  status: string;
  reason: string;
  description?: string;
  globs?: string[];
}
const explain = async (root: string, file: string): Promise<Record<string, Candidate>> =>
  Object.fromEntries(
    (JSON.parse((await runMain(["explain", "--json", "--files", file], { cwd: root })).stdout).candidates as Candidate[]).map((c) => [
      c.id.replace(".cursor/rules/", ""),
      c,
    ]),
  );

test("unquoted comma-separated globs still apply, with the description intact, and the file is named with its line", async () => {
  const root = materialize("cursor-glob-shapes");
  const rule = (await explain(root, "src/app.ts"))["strict-types.mdc"]!;
  assert.is(rule.status, "included");
  assert.is(rule.description, "Type-safety conventions");
  assert.equal(rule.globs, ["*.ts", "*.tsx"]);
  const { stdout, stderr } = await runMain(["build", "--files", "src/app.ts"], { cwd: root });
  assert.match(stderr, "ctxinject: warning: .cursor/rules/strict-types.mdc:3: frontmatter is not strict YAML");
  assert.match(stdout, "Public functions take and return `readonly` arrays.");
  assert.not.match(stdout, "warning");
});

test("a header block never closed is a warning naming file and line, and the rule is kept as a manual one", async () => {
  const root = materialize("cursor-glob-shapes");
  const { stderr } = await runMain(["build", "--files", "src/app.ts"], { cwd: root });
  assert.match(stderr, "ctxinject: warning: .cursor/rules/unclosed.mdc:1: frontmatter opened with --- is never closed");
  assert.is((await explain(root, "src/app.ts"))["unclosed.mdc"]!.status, "manual");
  assert.match((await runMain(["build", "--rule", "unclosed"], { cwd: root })).stdout, "Keep each paragraph to one idea.");
});

/** Its globs matched no target (a rule with a description is then weighed by it: issue 44 item 7). */
const missed = (c: Candidate) => {
  assert.is.not(c.status, "included", c.reason);
  assert.match(c.reason, /^no target matches /);
};

test("a !pattern in an inline list keeps a rule away from the excluded folder", async () => {
  const root = materialize("cursor-glob-shapes");
  assert.is((await explain(root, "src/app.spec.ts"))["specs.mdc"]!.status, "included");
  missed((await explain(root, "src/archive/old.spec.ts"))["specs.mdc"]!);
});

test("braces in a quoted glob and a block list of globs both match", async () => {
  const root = materialize("cursor-glob-shapes");
  const scss = await explain(root, "src/theme.scss");
  assert.is(scss["stylesheets.mdc"]!.status, "included");
  assert.is(scss["tokens.md"]!.status, "included");
  assert.equal(scss["tokens.md"]!.globs, ["**/*.scss", "**/*.less"]);
  const ts = await explain(root, "src/app.ts");
  missed(ts["stylesheets.mdc"]!);
  missed(ts["tokens.md"]!);
});

test.run();
