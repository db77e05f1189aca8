import { test } from "uvu";
import * as assert from "uvu/assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";
import { countOf as count } from "../helpers/doc.js";

const { folder } = tempFolders(test);

test.after(cleanup);

// Issue 44 items 2 and 3: a file's `@imports` are units of their own once the importer's expansion is cut.

interface Row {
  id: string;
  status: string;
  reason: string;
}

const RULES = ["terminology", "continuous-work", "coding", "testing", "go-standards", "errors", "logging", "security", "release", "review"];
const CAPPED_FILES: Array<[string, string]> = [
  ["docs/glossary.md", "glossary"],
  ...RULES.map((r): [string, string] => [`.github/instructions/${r}.instructions.md`, r]),
];

const rows = async (root: string, args: string[]): Promise<Row[]> => {
  const { status, stdout, stderr } = await runMain(["explain", "--json", ...args], { cwd: root });
  assert.is(status, 0, stderr);
  return (JSON.parse(stdout) as { candidates: Row[] }).candidates;
};

test("build --all: a CLAUDE.md over the entry cap with its imports is sent as written, and every file it imports is printed whole, once", async () => {
  const root = materialize("capped-imports");
  const { status, stdout, stderr } = await runMain(["build", "--all"], { cwd: root });
  assert.is(status, 0, stderr);
  assert.match(stderr, "CLAUDE.md: larger than 100000 characters with its imports; sent as written, each imported file an entry of its own");
  // Nothing is lost to the cap: CLAUDE.md's own text to its last line, and every imported file to its last line.
  assert.not.match(stdout, "capped at 100000 characters");
  assert.is(count(stdout, "(claude-head)"), 1, stdout);
  assert.is(count(stdout, "(claude-tail)"), 1);
  for (const [path, marker] of CAPPED_FILES) assert.is(count(stdout, `(end-${marker})`), 1, `${path} is printed whole, once`);
  // CLAUDE.md's own text keeps its imports as written: the pointers to the entries that follow.
  assert.match(stdout, "@.github/instructions/review.instructions.md");

  const explained = await rows(root, ["--all"]);
  const claude = explained.find((r) => r.id === "CLAUDE.md")!;
  assert.is(claude.status, "included");
  assert.match(claude.reason, "with its imports larger than 100000 characters: sent as written, each imported file an entry of its own");
  for (const [path] of CAPPED_FILES) assert.is(explained.find((r) => r.id === path)?.status, "included", `${path} in explain`);
});

test("build --as claude still shows every file a CLAUDE.md over the cap imports: Claude Code reads them through it", async () => {
  const root = materialize("capped-imports");
  const { status, stdout, stderr } = await runMain(["build", "--as", "claude", "--files", "cmd/ledger/main.go", "--max-tokens", "100000"], { cwd: root });
  assert.is(status, 0, stderr);
  for (const [path, marker] of CAPPED_FILES) assert.is(count(stdout, `(end-${marker})`), 1, `${path} once`);
  assert.match(stdout, "(claude-tail)");
});

test("explain shows the cap of a file cut to 100000 characters", async () => {
  const root = materialize("capped-imports");
  writeFileSync(join(root, "README.md"), "A plain sentence about the ledger service. ".repeat(3000));
  const explained = await rows(root, ["--files", "cmd/ledger/main.go"]);
  const readme = explained.find((r) => r.id === "README.md")!;
  assert.match(readme.reason, "capped at 100000 characters: read README.md for the rest");
});

test("a Go file under the default budget: the imported rules are ranked one by one, each sent whole, cut with a pointer or named in the index", async () => {
  const root = materialize("capped-imports");
  const { status, stdout, stderr } = await runMain(["build", "--files", "cmd/ledger/main.go"], { cwd: root });
  assert.is(status, 0, stderr);
  // CLAUDE.md's own text is sent whole, not its first 5k tokens cut from the top.
  assert.match(stdout, "(claude-head)");
  assert.match(stdout, "(claude-tail)");
  assert.not.match(stdout, "read CLAUDE.md for the rest");
  let whole = 0;
  for (const [path, marker] of CAPPED_FILES) {
    const sent = stdout.includes(`(end-${marker})`);
    if (sent) whole++;
    const named = stdout.includes(`- \`${path}\` (`) || stdout.includes(`read ${path} for the rest`);
    assert.ok(sent || named, `${path} is neither sent whole nor named\n${stdout}`);
  }
  assert.ok(whole >= 2 && whole < CAPPED_FILES.length, `${whole} files sent whole`);
  for (const row of await rows(root, ["--files", "cmd/ledger/main.go"])) {
    if (row.status === "over-budget") assert.match(row.reason, "listed in the index", row.id);
  }
});

test("the Claude hook neither unfolds nor re-sends what Claude loads itself: the rules a capped CLAUDE.md imports stay out", async () => {
  const root = materialize("capped-imports");
  const state = folder("capped-state");
  const input = JSON.stringify({ session_id: "capped-1", cwd: root, hook_event_name: "UserPromptSubmit", prompt: "fix the handler in cmd/ledger/main.go" });
  const { status, stdout, stderr } = await runMain(["hook", "claude"], { cwd: "/", env: { CTXINJECT_STATE_DIR: state }, input });
  assert.is(status, 0, stderr);
  for (const [, marker] of CAPPED_FILES) assert.not.match(stdout, `(${marker})`);
});

const CHAIN = "src/run.go";
const NOTES: Array<[string, string]> = [
  ["docs/plan.md", "migrate-plan"],
  ["docs/locks.md", "migrate-locks"],
  ["docs/verify.md", "migrate-verify"],
];

test("a CLAUDE.md whose imports fit the budget is sent folded, as Claude reads it", async () => {
  const root = materialize("import-chain-budget");
  const budgeted = await runMain(["build", "--files", CHAIN, "--max-tokens", "8000"], { cwd: root });
  assert.is(budgeted.status, 0, budgeted.stderr);
  assert.match(budgeted.stdout, "<!-- directory-agents: CLAUDE.md (normal) imports docs/plan.md, docs/locks.md, docs/verify.md -->");
  assert.is(count(budgeted.stdout, "<!-- directory-agents:"), 1, "one entry");
  const unbounded = await runMain(["build", "--all"], { cwd: root });
  assert.is(budgeted.stdout, unbounded.stdout);
});

test("under a budget an import chain that does not fit is ranked file by file: CLAUDE.md's own text whole, each imported file whole, cut with a pointer, or named", async () => {
  const root = materialize("import-chain-budget");
  for (const budget of ["2000", "1200", "600"]) {
    const { status, stdout, stderr } = await runMain(["build", "--files", CHAIN, "--max-tokens", budget], { cwd: root });
    assert.is(status, 0, stderr);
    assert.match(stdout, "(migrate-own)", `--max-tokens ${budget}: CLAUDE.md's own text`);
    assert.not.match(stdout, "read CLAUDE.md for the rest", `--max-tokens ${budget}`);
    assert.not.match(stdout, /… and \d+ more/);
    for (const [path, marker] of NOTES) {
      const sent = stdout.includes(`(end-${marker})`);
      const named = stdout.includes(`- \`${path}\` (`) || stdout.includes(`read ${path} for the rest`);
      assert.ok(sent || named, `--max-tokens ${budget}: ${path} is neither sent whole nor named\n${stdout}`);
    }
    // The first import is kept before the last: the later gives way first, as the chain reads.
    assert.ok(stdout.includes("(migrate-plan)") || !stdout.includes("(migrate-verify)"), `--max-tokens ${budget}`);
  }
  const explained = await rows(root, ["--files", CHAIN, "--max-tokens", "1200"]);
  const claude = explained.find((r) => r.id === "CLAUDE.md")!;
  assert.is(claude.status, "included");
  assert.match(claude.reason, "its text with its imports did not fit whole in --max-tokens 1200: sent as written, each imported file an entry of its own");
  const verify = explained.find((r) => r.id === "docs/verify.md")!;
  assert.is(verify.status, "over-budget");
  assert.match(verify.reason, "imported by CLAUDE.md");
  assert.match(verify.reason, "listed in the index");
});

test.run();
