/**
 * explain's text is read in a terminal (issue 30 item 12): it fits 100 columns, shows relevance evidence in the
 * words people wrote, says where every left-out entry went, and explains `--as`'s column once.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { cleanup, git, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

test.after(cleanup);

const BRIDGE = "services/payments-gateway/internal/settlement-reconciliation/adapters/legacy-mainframe-bridge";
const TARGET = ["--files", `${BRIDGE}/src/handlers/status-report.ts`];
const PROMPT = ["--prompt", "the package status report shows stale statuses after the ledger migrations"];

type Row = { id: string; status: string; reason: string; agent?: { loads: boolean; reason: string; skipped?: boolean } };

async function explain(root: string, ...args: string[]) {
  const result = await runMain(["explain", ...args], { cwd: root });
  assert.is(result.status, 0, result.stderr);
  return result.stdout;
}
const rowsOf = (stdout: string): Map<string, Row> => new Map((JSON.parse(stdout).candidates as Row[]).map((r) => [r.id, r]));
const bridge = (path: string) => `${BRIDGE}/${path}`;
const columns = (line: string) => [...line].length;

test("explain fits 100 columns on a tree of long paths and many reasons; only a path longer than a line runs past, alone", async () => {
  const root = materialize("explain-wide");
  for (const args of [[], ["--as", "copilot"], ["--max-tokens", "400"], ["--as", "copilot", "--max-tokens", "150"]]) {
    const text = await explain(root, ...TARGET, ...PROMPT, ...args);
    for (const line of text.split("\n")) {
      if (columns(line) <= 100) continue;
      assert.not.match(line.trim(), " ", `${args.join(" ")}: a line of ${columns(line)} columns that is not one path alone:\n${line}`);
    }
    // Each candidate is one numbered row, its reason under it.
    assert.is(text.match(/^\d+ +[a-z-]+ +\d+( |$)/gm)?.length, 13, text);
  }
  const text = await explain(root, ...TARGET, ...PROMPT);
  assert.match(text, /^#\s+status\s+tokens\s+id\n\s+priority · kind · source — reason$/m);
  assert.match(text, /^\d+\s+included\s+\d+\s+AGENTS\.md\n {6}normal · directory · directory-agents — project root$/m);
});

test("relevance evidence is the words as the prompt and the rule wrote them, not their stems", async () => {
  const root = materialize("explain-wide");
  const rows = rowsOf(await explain(root, "--json", ...TARGET, ...PROMPT));
  const status = rows.get(bridge(".cursor/rules/package-status.mdc"))!.reason;
  assert.match(status, /^relevance 1\.00 >= 0\.35 \(package, status, report\b/);
  assert.not.match(status, /packag\b|statu\b/);
  // A related word is the rule's own ("caching"), said to be related, not `~cach`.
  const caching = rows.get(bridge(".cursor/rules/lookup-caching.mdc"))!.reason;
  assert.match(caching, "(related: caching)");
  assert.not.match(caching, "~");
  assert.match(await explain(root, ...TARGET, ...PROMPT), "(package, status, report");
});

test("every left-out entry says where it went: the index, the budget (and the evidence it had), a duplicate's twin", async () => {
  const root = materialize("explain-wide");
  const rows = rowsOf(await explain(root, "--json", ...TARGET, ...PROMPT, "--max-tokens", "400"));
  const overBudget = [...rows.values()].filter((r) => r.status === "over-budget");
  assert.ok(overBudget.length > 0);
  // A copy of a text the budget left out is left out with it, and named too (issue 44 item 4).
  for (const row of overBudget)
    assert.match(
      row.reason,
      /(; left out by the budget: \d+ tokens did not fit in --max-tokens 400 beside stronger evidence|; left out with it: \S+ did not fit whole in --max-tokens 400); listed in the index$/,
      row.id,
    );
  assert.match(rows.get(bridge(".cursor/rules/package-status.mdc"))!.reason, /^relevance 1\.00 >= 0\.35 \(package.*; left out by the budget/);
  const likely = "; likely relevant: listed first in the index, to be read before starting";
  for (const row of rows.values())
    if (row.status === "below-threshold") assert.ok(row.reason.endsWith("; listed in the index") || row.reason.endsWith(likely), `${row.id}: ${row.reason}`);
  // The caching rule comes in through related words only (stale, lookup caching): the likely tier, not the output.
  assert.match(rows.get(bridge(".cursor/rules/lookup-caching.mdc"))!.reason, /^relevance 0\.00 \(0\.\d\d with related words\) < 0\.35 .*; likely relevant/);
  assert.match(rows.get(bridge("AGENTS.md"))!.reason, `same content as ${bridge(".cursor/rules/copy-of-agents.mdc")}`);
  assert.match(rows.get(bridge(".cursor/rules/release.mdc"))!.reason, "include with --rule release");
});

test('a budget too small for every name: explain says which entries are in the "… and N more", and they are as many', async () => {
  const root = materialize("explain-wide");
  const build = await runMain(["build", ...TARGET, ...PROMPT, "--max-tokens", "150"], { cwd: root });
  const more = Number(/… and (\d+) more/.exec(build.stdout)?.[1]);
  assert.ok(more > 0, build.stdout);
  const rows = [...rowsOf(await explain(root, "--json", ...TARGET, ...PROMPT, "--max-tokens", "150")).values()];
  const unnamed = rows.filter((r) => r.reason.includes("not named in the index either"));
  assert.is(unnamed.length, more, unnamed.map((r) => r.id).join(", "));
  for (const row of unnamed) {
    assert.ok(["over-budget", "below-threshold"].includes(row.status), row.id);
    assert.not.match(row.reason, "listed in the index", row.id);
    assert.match(row.reason, `one of the "… and ${more} more"`);
  }
});

test("explain --as copilot: the column's marks explained once, and why Copilot leaves a file out shown in the table", async () => {
  const root = materialize("explain-wide");
  const text = await explain(root, "--as", "copilot", ...TARGET, ...PROMPT);
  assert.is(text.split("copilot column:").length - 1, 1, text);
  assert.match(
    text,
    /^copilot column: loads = copilot loads it by itself.*; skips = copilot's own\s+settings leave it out.*; - = copilot does not load it by itself/m,
  );
  assert.match(text, /^#\s+status\s+tokens\s+copilot\s+id$/m);
  // Under its row: the rule's own reason, then Copilot's.
  assert.match(
    text,
    /^\d+\s+included\s+\d+\s+skips\s+\.github\/instructions\/review-only\.instructions\.md\n.*glob \*\* matches every file\n {6}copilot: excludeAgent: coding-agent — Copilot's coding agent leaves it out/m,
  );
  assert.match(
    text,
    /^\d+\s+included\s+\d+\s+loads\s+\.github\/copilot-instructions\.md\n.*\n {6}copilot: Copilot reads \.github\/copilot-instructions\.md itself, always$/m,
  );
  const rows = rowsOf(await explain(root, "--json", "--as", "copilot", ...TARGET, ...PROMPT));
  assert.equal(rows.get(".github/instructions/review-only.instructions.md")!.agent!.skipped, true);
  assert.is(rows.get(".github/copilot-instructions.md")!.agent!.skipped, undefined);
});

test("explain's text on a symlinked skills folder: each skill is one row", async () => {
  const root = materialize("symlinked-skills-folder");
  symlinkSync(".agents", join(root, ".claude"));
  git(root, "add", "-A");
  const text = await explain(root, "--prompt", "merge the pdf forms");
  const skillRows = text.split("\n").filter((line) => /^\d+ .*SKILL\.md$/.test(line));
  assert.equal(
    skillRows.map((line) => line.split(/\s+/).at(-1)),
    [".agents/skills/db-migrations/SKILL.md", ".agents/skills/pdf-forms/SKILL.md", ".agents/skills/release-notes/SKILL.md"],
  );
  assert.is(text.split(".claude/skills/pdf-forms/SKILL.md").length - 1, 1, "the other path is named once, under its row");
});

test.run();
