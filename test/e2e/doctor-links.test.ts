/**
 * #44 item 10: doctor on layouts that are valid — rule folders that are links into one `.agents` folder, a tool's own
 * `.mdc` templates — and the findings it missed or tripled: a CLAUDE.md import chain Claude loads every session, a
 * Cursor `.md` rule reached through a link, a glob written in `globs`, `paths` and `applyTo` at once.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { Finding } from "../../src/core/doctor/finding.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

/** A git repository of these files (and links: `link:<target>`), every file added to the index. */
function repo(files: Record<string, string>): string {
  const root = folder("doctor-links");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    if (text.startsWith("link:")) symlinkSync(text.slice("link:".length), join(root, path));
    else writeFileSync(join(root, path), text);
  }
  execFileSync("git", ["init", "-q"], { cwd: root });
  execFileSync("git", ["add", "-A"], { cwd: root });
  return root;
}

async function doctor(root: string, ...args: string[]) {
  const out = await runMain(["doctor", "--json", "--fail-on", "warning", ...args], { cwd: root });
  return { status: out.status, findings: (JSON.parse(out.stdout) as { findings: Finding[] }).findings, stderr: out.stderr };
}

const LINKED = {
  ".agents/rules/ts.mdc": '---\nglobs: "**/*.ts"\n---\nUse strict types.\n',
  ".agents/rules/style.mdc": "---\nalwaysApply: true\n---\nKeep it short.\n",
  ".cursor/rules": "link:../.agents/rules",
  ".claude/rules": "link:../.agents/rules",
  "src/a.ts": "export {};\n",
};

test("doctor: .cursor/rules and .claude/rules as links to one .agents/rules folder are a valid layout (--fail-on warning passes)", async () => {
  const { status, findings } = await doctor(repo(LINKED));
  assert.equal(
    findings.filter((f) => f.kind === "misplaced"),
    [],
    "neither the .cursor/rules link nor the .mdc files behind it",
  );
  assert.ok(
    findings.every((f) => f.severity === "info"),
    JSON.stringify(findings),
  );
  assert.is(status, 0);
});

test("doctor: a .md rule Cursor reaches through a .cursor/rules link is Cursor's .md rule, whatever name the file is kept under", async () => {
  const { status, findings } = await doctor(repo({ ...LINKED, ".agents/rules/notes.md": "Notes for everyone.\n" }));
  const md = findings.filter((f) => f.kind === "cursor-md-rule");
  assert.is(md.length, 1, JSON.stringify(findings));
  assert.is(md[0]!.severity, "warning");
  assert.match(md[0]!.message, "Cursor finds as .cursor/rules/notes.md (through a link)");
  assert.is(status, 1);
});

test("doctor: .mdc templates in a tool's own assets/rules folder are information, not misplaced rules; in a folder named for Cursor they still are", async () => {
  const { status, findings } = await doctor(
    repo({
      "tools/gen/assets/rules/template.mdc": '---\nglobs: "**/*.ts"\n---\nA rule the tool writes into projects.\n',
      "cursor-rules/tables.mdc": "---\nalwaysApply: true\n---\nTables.\n",
      "src/a.ts": "export {};\n",
    }),
  );
  const misplaced = findings.filter((f) => f.kind === "misplaced").map((f) => [f.file, f.severity]);
  assert.equal(misplaced, [
    ["cursor-rules/tables.mdc", "warning"],
    ["tools/gen/assets/rules/template.mdc", "info"],
  ]);
  assert.is(status, 1, "the one in cursor-rules/ is still a warning");
});

test("doctor: a CLAUDE.md that imports 25k tokens is a long chain, said with what it imports", async () => {
  const standards = Array.from({ length: 1300 }, (_, i) => `Standard ${i}: write the tests first, keep functions small and typed.`).join("\n");
  const { findings } = await doctor(
    repo({ "CLAUDE.md": "# House\n\n@docs/standards.md\n", "docs/standards.md": `${standards}\n`, "src/a.ts": "export {};\n" }),
  );
  const chain = findings.find((f) => f.kind === "long-chain" && f.file === "CLAUDE.md");
  assert.ok(chain, JSON.stringify(findings));
  assert.match(
    chain!.message,
    /the CLAUDE\.md chain down to here \(CLAUDE\.md\), with the 1 file it imports, is about 2\d{4} tokens, over doctor\.maxChainTokens 8000/,
  );
  assert.match(chain!.agent, "claude-code");
});

test("doctor: a pattern written in globs, paths and applyTo at once is one dead glob, on its line, in every format; build --all prints it once", async () => {
  const root = repo({
    ".claude/rules/lib.md": '---\nglobs: "lib/**/*"\npaths: "lib/**/*"\napplyTo: "lib/**/*"\n---\nA rule for lib.\n',
    "src/a.ts": "export {};\n",
  });
  const { findings } = await doctor(root);
  const dead = findings.filter((f) => f.kind === "dead-glob");
  assert.equal(
    dead.map((f) => [f.file, f.line]),
    [[".claude/rules/lib.md", 2]],
  );
  const sarif = JSON.parse((await runMain(["doctor", "--format", "sarif"], { cwd: root })).stdout) as {
    runs: Array<{ results: Array<{ ruleId: string; locations: Array<{ physicalLocation: { region: { startLine: number } } }> }> }>;
  };
  const results = sarif.runs[0]!.results.filter((r) => r.ruleId === "dead-glob");
  assert.equal(
    results.map((r) => r.locations[0]!.physicalLocation.region.startLine),
    [2],
  );
  const github = (await runMain(["doctor", "--format", "github"], { cwd: root })).stdout.split("\n").filter((l) => l.includes("dead-glob"));
  assert.is(github.length, 1);
  assert.match(github[0]!, "file=.claude/rules/lib.md,line=2,");
  const all = await runMain(["build", "--all"], { cwd: root });
  assert.match(all.stdout, "<!-- rules-injector: .claude/rules/lib.md (normal, auto: lib/**/*) -->");
});

test.run();
