import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

// fixtures/agents-override: an AGENTS.md chain, an AGENTS.override.md, a critical rule, CLAUDE.md symlinked to AGENTS.md.
test.after(cleanup);

const BILLING = "services/billing/src/invoice.ts";

test("the most specific AGENTS.md comes last, after the root one", async () => {
  const root = materialize("agents-override");
  const { stdout } = await runMain(["build", "--files", "services/search/src/query.ts"], { cwd: root });
  const rootAt = stdout.indexOf("<!-- directory-agents: AGENTS.md (normal) -->");
  const nestedAt = stdout.indexOf("<!-- directory-agents: services/search/AGENTS.md (normal) -->");
  assert.ok(rootAt >= 0 && nestedAt > rootAt, stdout);
});

test("a critical rule comes first and AGENTS.override.md replaces the AGENTS.md beside it", async () => {
  const root = materialize("agents-override");
  const { stdout } = await runMain(["build", "--files", BILLING], { cwd: root });
  assert.ok(stdout.startsWith("<!-- rules-injector: services/billing/.cursor/rules/ledger.mdc (critical) -->"), stdout);
  assert.match(stdout, "Amounts are integers in minor units");
  assert.not.match(stdout, "set aside");
  const byId = Object.fromEntries(
    JSON.parse((await runMain(["explain", "--json", "--files", BILLING], { cwd: root })).stdout).candidates.map((c: { id: string }) => [c.id, c]),
  );
  assert.is(byId["services/billing/AGENTS.md"].status, "overwritten");
  assert.is(byId["services/billing/AGENTS.md"].reason, "replaced by services/billing/AGENTS.override.md");
});

test("CLAUDE.md symlinked to AGENTS.md is the same file: its text arrives once", async () => {
  const root = materialize("agents-override");
  const { stdout } = await runMain(["build", "--all"], { cwd: root });
  assert.is(stdout.split("Run `make check` before every push.").length - 1, 1, stdout);
  const candidates = JSON.parse((await runMain(["explain", "--json", "--files", BILLING], { cwd: root })).stdout).candidates;
  assert.not.ok(
    candidates.some((c: { id: string }) => c.id === "CLAUDE.md"),
    "one file, one row",
  );
  assert.equal(candidates.find((c: { id: string }) => c.id === "AGENTS.md").aliases, ["CLAUDE.md"]);
});

test.run();
