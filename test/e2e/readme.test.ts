import { test } from "uvu";
import * as assert from "uvu/assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

test.after(cleanup);

test("a README keeps its prose and code; HTML blocks, badges, images and embeds are left out", async () => {
  const root = materialize("readme-for-people");
  const { status, stdout, stderr } = await runMain(["build", "--files", "apps/api/src/queries.ts"], { cwd: root });
  assert.is(status, 0, stderr);
  for (const kept of ["(readme-prose)", "(readme-tests)", "(readme-code-html)", "(readme-code-badge)", '<div align="center">']) assert.match(stdout, kept);
  for (const gone of ["<p align", "img.shields.io/badge", "producthunt", "screenshot.png", "a comment for people", "logo.png"]) assert.not.match(stdout, gone);
});

test("inline HTML in a README's prose (kbd, sub, a link, br) goes; its text, generics and code spans stay", async () => {
  const root = materialize("readme-inline-html");
  const { status, stdout, stderr } = await runMain(["build", "--files", "src/widget.ts"], { cwd: root });
  assert.is(status, 0, stderr);
  for (const kept of [
    "[**Read the contributing guide**](CONTRIBUTING.md)",
    "Press Ctrl+S to save",
    "prints a footnote at",
    "A guide to the API lives",
    "Map<string, Widget>",
    "`<kbd>` in code",
  ])
    assert.match(stdout, kept);
  for (const gone of ["<kbd>C", "<sub>", "<br", "<a href", "</a>"]) assert.not.match(stdout, gone);
});

test("an empty or heading-only README is skipped without a warning", async () => {
  const root = materialize("readme-for-people");
  const { status, stdout, stderr } = await runMain(["build", "--files", "apps/api/src/queries.ts"], { cwd: root });
  assert.is(status, 0, stderr);
  assert.not.match(stdout, "apps/api/README.md");
  assert.not.match(stderr, "README");
  const docs = await runMain(["build", "--files", "docs/guide.md"], { cwd: root });
  assert.not.match(docs.stderr, "empty");
});

for (const git of [true, false]) {
  test(`--all reads the READMEs of the root and of package roots only, unless allReadmes is set (${git ? "git's index" : "a walk outside git"})`, async () => {
    const root = materialize("readme-for-people", { git });
    const all = await runMain(["build", "--all"], { cwd: root });
    assert.is(all.status, 0, all.stderr);
    assert.match(all.stdout, "(readme-prose)");
    assert.match(all.stdout, "(readme-web-package)");
    assert.not.match(all.stdout, "(readme-archived)");
    writeFileSync(join(root, ".ctxinjectrc.json"), JSON.stringify({ allReadmes: true }));
    assert.match((await runMain(["build", "--all"], { cwd: root })).stdout, "(readme-archived)");
  });
}

test.run();
