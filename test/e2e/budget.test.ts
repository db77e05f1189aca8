import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

test.after(cleanup);

const TARGET = "services/billing/invoices/totals.ts";
// Path words never inject a description-only rule (issue 45): the prompt says what the two guesses are about.
const PROMPT = ["--prompt", "the invoice totals in billing are off by a cent"];

interface Row {
  id: string;
  status: string;
  reason: string;
}

const explainRows = async (root: string, args: string[]): Promise<Row[]> => {
  const { status, stdout, stderr } = await runMain(["explain", "--json", "--files", TARGET, ...PROMPT, ...args], { cwd: root });
  assert.is(status, 0, stderr);
  return (JSON.parse(stdout) as { candidates: Row[] }).candidates;
};

test("under a budget the README and relevance guesses give way before the glob match and the agent files", async () => {
  const root = materialize("budget-evidence");
  const { status, stdout, stderr } = await runMain(["build", "--files", TARGET, ...PROMPT, "--max-tokens", "1200"], { cwd: root });
  assert.is(status, 0, stderr);
  // The exact glob match for the target, the nearest AGENTS.md and the root's agent files stay whole.
  for (const marker of ["(glob-money-math)", "(agents-billing)", "(agents-root)", "(claude-root)"]) assert.match(stdout, marker);
  assert.not.match(stdout, "glob-money-math.md for the rest", "the glob match is not cut");
  // The README goes first, then the weaker of the two guesses; the stronger guess is cut, not dropped.
  assert.not.match(stdout, "(readme-root)");
  assert.match(stdout, "- `README.md` (");
  assert.match(stdout, "read .kiro/steering/invoice-pdf.md for the rest");
  assert.match(stdout, "- `.kiro/steering/billing-api-style.md` (");
  // The output keeps the contract's order: rules, then agent files, nearest last.
  const at = (marker: string) => stdout.indexOf(marker);
  assert.ok(at("(glob-money-math)") < at("(agents-root)") && at("(agents-root)") < at("(agents-billing)"), stdout);
});

test("a tighter budget drops the far end of the agent-file chain before the nearest file and the glob match", async () => {
  const root = materialize("budget-evidence");
  const { status, stdout, stderr } = await runMain(["build", "--files", TARGET, ...PROMPT, "--max-tokens", "520"], { cwd: root });
  assert.is(status, 0, stderr);
  assert.match(stdout, "(glob-money-math)");
  assert.match(stdout, "(agents-billing)");
  assert.not.match(stdout, "(guess-billing)");
  assert.not.match(stdout, "(guess-invoice)");
});

test("every entry left out is named in the index, never counted, and explain says it went there", async () => {
  const root = materialize("budget-evidence");
  for (const budget of ["300", "520", "800", "1200"]) {
    const { status, stdout, stderr } = await runMain(["build", "--files", TARGET, ...PROMPT, "--max-tokens", budget], { cwd: root });
    assert.is(status, 0, stderr);
    assert.not.match(stdout, /… and \d+ more/, `--max-tokens ${budget}`);
    for (const row of await explainRows(root, ["--max-tokens", budget])) {
      if (row.status !== "over-budget" && row.status !== "below-threshold") continue;
      assert.match(stdout, `- \`${row.id}\` (`, `--max-tokens ${budget}: ${row.id} is not in the index`);
      assert.match(row.reason, "listed in the index", `--max-tokens ${budget}: ${row.id}`);
    }
  }
});

test("a targeted build has a budget of 8000 tokens by default, as init's template and the JSON both say", async () => {
  const root = materialize("budget-evidence");
  // A README far over any budget: a targeted build fits it, --all (generated files) does not.
  writeFileSync(join(root, "README.md"), "Plain sentence about the project. ".repeat(6000));
  const json = JSON.parse((await runMain(["build", "--files", TARGET, "--format", "json"], { cwd: root })).stdout) as {
    maxTokens: number | null;
    tokens: number;
  };
  assert.is(json.maxTokens, 8000);
  assert.ok(json.tokens <= 8000, `${json.tokens} tokens`);
  const all = JSON.parse((await runMain(["build", "--all", "--format", "json"], { cwd: root })).stdout) as { maxTokens: number | null; tokens: number };
  assert.is(all.maxTokens, null);
  assert.ok(all.tokens > 8000);
  assert.is((await runMain(["init"], { cwd: root })).status, 0);
  const template = readFileSync(join(root, ".ctxinjectrc.yaml"), "utf8");
  assert.match(template, `# maxTokens: ${json.maxTokens}`);
});

// Issue 44 item 4: a rule whose glob names the target exactly is the strongest evidence there is for that file.
const WIDGET = "lib/widget.js";
const EXACT = ".cursor/rules/widget-render.mdc";

test("an exact glob match for the target outlasts an always-rule and a broad glob: at 8000 it is sent whole, under less it is cut, never dropped", async () => {
  const root = materialize("budget-exact-match");
  const whole = await runMain(["build", "--files", WIDGET], { cwd: root });
  assert.is(whole.status, 0, whole.stderr);
  assert.match(whole.stdout, "(end-widget-render)", "the 6.7k-token exact match fits the default budget whole");
  for (const budget of ["2000", "4000"]) {
    const { status, stdout, stderr } = await runMain(["build", "--files", WIDGET, "--max-tokens", budget], { cwd: root });
    assert.is(status, 0, stderr);
    assert.match(stdout, "(widget-render)", `--max-tokens ${budget}`);
    assert.match(stdout, `[… trimmed to fit the token budget: read ${EXACT} for the rest]`, `--max-tokens ${budget}`);
    // The weaker evidence gave way first and is named.
    assert.not.match(stdout, "(lib-scripts)", `--max-tokens ${budget}`);
    assert.not.match(stdout, "(always-style)", `--max-tokens ${budget}`);
    assert.match(stdout, "- `.cursor/rules/lib-scripts.mdc` (", `--max-tokens ${budget}`);
    assert.match(stdout, "- `.cursor/rules/always-style.mdc` (", `--max-tokens ${budget}`);
  }
});

test("under 2000, 4000 and 8000 tokens every file's text reaches the agent whole or the file is named: a steering file inside a cut AGENTS.md, a nested AGENTS.md imported by a CLAUDE.md left out", async () => {
  const root = materialize("budget-exact-match");
  const files: Array<[string, string]> = [
    [".cursor/rules/always-style.mdc", "always-style"],
    [".cursor/rules/lib-scripts.mdc", "lib-scripts"],
    [EXACT, "widget-render"],
    [".kiro/steering/naming.md", "steering-naming"],
    ["AGENTS.md", "agents-root"],
    ["lib/AGENTS.md", "agents-lib"],
    ["README.md", "readme-root"],
  ];
  for (const budget of ["2000", "4000", "8000"]) {
    const { status, stdout, stderr } = await runMain(["build", "--files", WIDGET, "--max-tokens", budget], { cwd: root });
    assert.is(status, 0, stderr);
    assert.not.match(stdout, /… and \d+ more/);
    for (const [path, marker] of files) {
      const sent = stdout.includes(`(end-${marker})`);
      const named = stdout.includes(`- \`${path}\` (`) || stdout.includes(`read ${path} for the rest`);
      assert.ok(sent || named, `--max-tokens ${budget}: ${path} is neither sent whole nor named\n${stdout}`);
    }
    const explained = await runMain(["explain", "--json", "--files", WIDGET, "--max-tokens", budget], { cwd: root });
    for (const row of (JSON.parse(explained.stdout) as { candidates: Row[] }).candidates) {
      if (row.status === "over-budget") assert.match(row.reason, "listed in the index", `--max-tokens ${budget}: ${row.id}`);
    }
  }
});

test.run();
