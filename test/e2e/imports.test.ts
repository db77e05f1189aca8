import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { countOf as count } from "../helpers/doc.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

test.after(cleanup);

test("a CLAUDE.md that is only @AGENTS.md gives AGENTS.md once", async () => {
  const root = materialize("imports");
  const { status, stdout, stderr } = await runMain(["build"], { cwd: root });
  assert.is(status, 0, stderr);
  assert.is(count(stdout, "(agents-root)"), 1, stdout);
});

test("an import is expanded in place, nested imports too, and the provenance lists them", async () => {
  const root = materialize("imports");
  const { stdout } = await runMain(["build"], { cwd: root });
  assert.match(stdout, "<!-- directory-agents: GEMINI.md (normal) imports docs/style.md, docs/deeper.md -->");
  assert.match(stdout, "Follow Sentences stay short. (style-doc) See also Headings use sentence case. (deeper-doc) when writing prose.");
});

test("e-mail addresses, package names, tokens in code and files that are not there stay as written", async () => {
  const root = materialize("imports");
  const { stdout } = await runMain(["build"], { cwd: root });
  assert.match(stdout, "Mail ops@example.invalid for access; install @types/node; `@AGENTS.md` in code is not an import.");
});

test("an import through a file (`@README.md/notes.md`) stays as written: the build goes on (it was an internal error)", async () => {
  const root = folder("import-through-file");
  writeFileSync(join(root, "CLAUDE.md"), "# Memory\n\nSee @README.md/notes.md for more.\n");
  writeFileSync(join(root, "README.md"), "# Readme\n");
  mkdirSync(join(root, "src"));
  const out = await runMain(["build", "--files", "src/a.ts"], { cwd: root });
  assert.is(out.status, 0, out.stderr);
  assert.match(out.stdout, "See @README.md/notes.md for more.");
});

test("an import cycle is stopped with a warning naming the chain", async () => {
  const root = materialize("imports");
  const { status, stdout, stderr } = await runMain(["build", "--files", "pkg/main.ts"], { cwd: root });
  assert.is(status, 0);
  assert.match(stderr, "docs/b.md:1: import cycle: pkg/AGENTS.md → docs/a.md → docs/b.md → docs/a.md; @a.md is left as written");
  assert.match(stdout, "Package notes. A imports B: B imports A again: @a.md (cycle-b) (cycle-a) (pkg-agents)");
});

test("explain shows the import tree under the importing file", async () => {
  const root = materialize("imports");
  const { stdout } = await runMain(["explain"], { cwd: root });
  assert.match(stdout, /GEMINI\.md\n.*\n {6}↳ imports docs\/style\.md\n {8}↳ imports docs\/deeper\.md/);
  const json = JSON.parse((await runMain(["explain", "--json"], { cwd: root })).stdout) as {
    candidates: Array<{ id: string; status: string; reason: string; imports?: unknown }>;
  };
  const gemini = json.candidates.find((c) => c.id === "GEMINI.md")!;
  assert.equal(gemini.imports, [{ path: "docs/style.md", imports: [{ path: "docs/deeper.md", imports: [] }] }]);
  const agents = json.candidates.find((c) => c.id === "AGENTS.md")!;
  assert.equal([agents.status, agents.reason], ["duplicate", "imported by CLAUDE.md"]);
});

test.run();
