import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { SaxesParser } from "saxes";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

const NEVER = /must never be injected/;
const BUTTON = "packages/web/src/components/Button.tsx";

test.after(cleanup);

test("build --files picks the rules, AGENTS.md chain and README chain of a nested target", async () => {
  const root = materialize("monorepo");
  const { status, stdout, stderr } = await runMain(["build", "--files", BUTTON], { cwd: root });
  assert.is(status, 0, stderr);
  for (const expected of [
    "<!-- rules-injector: packages/web/.cursor/rules/components.mdc (normal) -->",
    "<!-- rules-injector: packages/web/.cursor/rules/react.mdc (normal) -->",
    "<!-- rules-injector: .cursor/rules/typescript.mdc (normal) -->",
    "<!-- rules-injector: .claude/rules/web.md (normal) -->",
    "<!-- rules-injector: .github/copilot-instructions.md (normal) -->",
    "<!-- rules-injector: .cursorrules (normal) -->",
    "<!-- directory-agents: AGENTS.md (normal) -->",
    "<!-- directory-agents: packages/web/AGENTS.md (normal) -->",
    "<!-- directory-readme: packages/web/README.md (low) -->",
  ]) {
    assert.ok(stdout.includes(expected), `missing ${expected}`);
  }
  assert.not.ok(stdout.includes("packages/api/"), "rules of another package leaked in");
  assert.not.match(stdout, NEVER);
});

test("--all includes every rule once, marked with its kind, and nothing ignored or in node_modules", async () => {
  const root = materialize("monorepo");
  const { status, stdout } = await runMain(["build", "--all"], { cwd: root });
  assert.is(status, 0);
  assert.match(stdout, "<!-- rules-injector: .cursor/rules/release.mdc (normal, manual) -->");
  assert.match(stdout, "<!-- rules-injector: .cursor/rules/migrations.mdc (normal, agent-requested) -->");
  assert.match(stdout, "<!-- rules-injector: .cursor/rules/typescript.mdc (normal, auto: *.ts, *.tsx) -->");
  assert.is(stdout.split("Use pnpm; never commit").length - 1, 1, "the symlinked CLAUDE.md must not repeat AGENTS.md");
  assert.is(stdout.split("Use `unknown` instead of `any`").length - 1, 1, "the same rule in .claude/rules must appear once");
  assert.not.match(stdout, NEVER);
  assert.not.match(stdout, "not an instructions file");
});

test("a rule whose whole text is inside AGENTS.md is sent once, inside AGENTS.md; explain says where it went", async () => {
  const root = materialize("rule-inside-agents-file");
  for (const args of [["--files", "src/widget.ts"], ["--all"]]) {
    const { status, stdout, stderr } = await runMain(["build", ...args], { cwd: root });
    assert.is(status, 0, stderr);
    assert.is(stdout.split("(overview-body)").length - 1, 1, `${args.join(" ")}: the rule's text once`);
    assert.match(stdout, "(agents-preamble)");
  }
  const explain = JSON.parse((await runMain(["explain", "--json", "--files", "src/widget.ts"], { cwd: root })).stdout) as {
    candidates: Array<{ id: string; status: string; reason: string }>;
  };
  const rule = explain.candidates.find((c) => c.id === ".cursor/rules/overview.mdc");
  assert.is(rule?.status, "duplicate");
  assert.match(rule!.reason, "AGENTS.md");
});

test("explain reports duplicates, overrides and the statuses of rules left out", async () => {
  const root = materialize("monorepo");
  const { status, stdout } = await runMain(["explain", "--json", "--files", BUTTON], { cwd: root });
  assert.is(status, 0);
  const byId = Object.fromEntries(JSON.parse(stdout).candidates.map((c: { id: string }) => [c.id, c]));
  assert.is(byId["CLAUDE.md"], undefined, "CLAUDE.md links to AGENTS.md: one file, one row");
  assert.equal(byId["AGENTS.md"].aliases, ["CLAUDE.md"]);
  assert.is(byId[".claude/rules/typescript.md"].status, "duplicate");
  assert.is(byId[".cursor/rules/migrations.mdc"].status, "below-threshold");
  assert.is(byId[".cursor/rules/release.mdc"].status, "manual");
  assert.is(byId[".cursor/rules/styles.md"].status, "unmatched");
  // Its globs miss the target; it has a description, which is then its evidence (issue 44 item 7).
  assert.is(byId[".cursor/rules/testing.mdc"].status, "below-threshold");
  assert.match(byId[".cursor/rules/testing.mdc"].reason, /^no target matches its globs; by its description: relevance /);
  assert.not.ok(Object.keys(byId).some((id) => id.includes("node_modules") || id.startsWith("generated/")));
});

test("a folder as a target brings in that folder's own AGENTS.md and README", async () => {
  const root = materialize("monorepo");
  const value = JSON.parse((await runMain(["build", "--format", "json", "--files", "packages/web"], { cwd: root })).stdout);
  assert.equal(value.targets, ["packages/web/"]);
  const ids = value.entries.map((e: { id: string }) => e.id);
  assert.ok(ids.includes("packages/web/AGENTS.md"));
  assert.ok(ids.includes("packages/web/README.md"));
});

test("--rule includes a manual rule", async () => {
  const root = materialize("monorepo");
  const { stdout } = await runMain(["build", "--rule", "release"], { cwd: root });
  assert.match(stdout, "Cut releases from main only");
});

test("the same tree gives the same bytes in every format", async () => {
  const a = materialize("monorepo");
  const b = materialize("monorepo");
  for (const format of ["markdown", "xml", "compact", "json"]) {
    const first = (await runMain(["build", "--all", "--format", format], { cwd: a })).stdout;
    const second = (await runMain(["build", "--all", "--format", format], { cwd: a })).stdout;
    assert.is(first, second, format);
    if (format !== "json") assert.is((await runMain(["build", "--all", "--format", format], { cwd: b })).stdout, first, `${format} in another copy`);
  }
});

test("xml output is well-formed", async () => {
  const root = materialize("monorepo");
  const { stdout } = await runMain(["build", "--all", "--format", "xml"], { cwd: root });
  let entries = 0;
  const parser = new SaxesParser();
  parser.on("opentag", (tag) => void (tag.name === "entry" && entries++));
  parser.write(stdout).close();
  assert.ok(entries > 10);
});

test("json output has the contract's shape and the project root", async () => {
  const root = materialize("monorepo");
  const value = JSON.parse((await runMain(["build", "--files", BUTTON, "--format", "json"], { cwd: root })).stdout);
  assert.equal(value.targets, [BUTTON]);
  assert.is(value.tokenizer, "approx");
  assert.ok(value.entries.length > 5);
  assert.ok(value.merged.includes("\n\n---\n\n"));
  assert.match(value.root, /ctxinject-monorepo-/);
});

test("--no-provenance prints the bare join", async () => {
  const root = materialize("monorepo");
  const { stdout } = await runMain(["build", "--no-provenance"], { cwd: root });
  assert.not.match(stdout, "<!--");
  assert.match(stdout, "\n\n---\n\n");
});

test("outside git, a walk still never reads node_modules", async () => {
  const root = materialize("monorepo", { git: false });
  const { status, stdout } = await runMain(["build", "--all", "--root", root]);
  assert.is(status, 0);
  assert.not.match(stdout, "Dependency");
  assert.match(stdout, "Use pnpm; never commit");
});

test("git-ignored folders are never a source", async () => {
  const root = materialize("monorepo");
  assert.ok(existsSync(join(root, "generated/AGENTS.md")), "the fixture must carry its ignored folder");
  assert.not.match((await runMain(["build", "--all"], { cwd: root })).stdout, "Generated");
  assert.not.match((await runMain(["build", "--files", "generated/x.ts"], { cwd: root })).stdout, "Generated");
});

test.run();
