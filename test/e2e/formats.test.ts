import { test } from "uvu";
import * as assert from "uvu/assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

test.after(cleanup);

interface Row {
  source: string;
  id: string;
  kind: string;
  status: string;
  reason: string;
}

/** explain --json on a fixture copy: candidate id -> "kind status". */
async function explain(fixture: string, args: string[]): Promise<Record<string, string> & { rows?: never }> {
  const root = materialize(fixture);
  const { status, stdout, stderr } = await runMain(["explain", "--json", ...args], { cwd: root });
  assert.is(status, 0, stderr);
  const rows = (JSON.parse(stdout) as { candidates: Row[] }).candidates;
  return Object.fromEntries(rows.filter((r) => r.source !== "keyword-detector").map((r) => [r.id, `${r.source} ${r.kind} ${r.status}`]));
}

test("Windsurf: each trigger maps to its kind, and the legacy .windsurfrules always applies", async () => {
  const got = await explain("windsurf-triggers", ["--files", "app/main.py", "--prompt", "add a reversible schema migration for the users table"]);
  assert.equal(got, {
    ".windsurf/rules/house-style.md": "rules-injector always included",
    ".windsurf/rules/migrations.md": "rules-injector agent-requested included",
    ".windsurf/rules/python.md": "rules-injector auto included",
    ".windsurf/rules/release.md": "rules-injector manual manual",
    ".windsurfrules": "rules-injector always included",
  });
});

test("Cline: a .clinerules folder's files always apply unless `paths` narrows them; .txt files count", async () => {
  const api = await explain("cline-paths", ["--files", "api/server.go"]);
  assert.is(api[".clinerules/01-general.md"], "rules-injector always included");
  assert.is(api[".clinerules/notes.txt"], "rules-injector always included");
  assert.is(api[".clinerules/02-frontend.md"], "rules-injector auto unmatched");
  const web = await explain("cline-paths", ["--files", "web/App.tsx"]);
  assert.is(web[".clinerules/02-frontend.md"], "rules-injector auto included");
});

test("Cline: the workflows, hooks and skills folders of .clinerules are no rules (Cline's own loader leaves them out)", async () => {
  const got = await explain("cline-paths", ["--files", "api/server.go"]);
  for (const path of [".clinerules/workflows/release.md", ".clinerules/hooks/about.md", ".clinerules/skills/deploy-check/SKILL.md"])
    assert.is(got[path], undefined, path);
  const root = materialize("cline-paths");
  const { stdout } = await runMain(["build", "--files", "api/server.go"], { cwd: root });
  assert.not.match(stdout, /cline-(workflow|hooks|skill)-/);
  assert.match(stdout, ".clinerules/01-general.md");
});

test("Cline, Zed, Junie and Augment single files always apply", async () => {
  const got = await explain("single-file-agents", []);
  assert.equal(got, {
    ".junie/guidelines.md": "rules-injector always included",
    ".clinerules": "rules-injector always included",
    ".rules": "rules-injector always included",
  });
});

test("Roo Code: .roo/rules and .roorules always; mode folders only for the mode in use", async () => {
  const none = await explain("roo-modes", []);
  assert.equal(Object.keys(none).sort(), [".roo/rules/01-base.md", ".roorules"]);
  const architect = await explain("roo-modes", ["--mode", "architect"]);
  assert.equal(Object.keys(architect).sort(), [".roo/rules-architect/plan.md", ".roo/rules/01-base.md", ".roorules", ".roorules-architect"]);
  for (const value of Object.values(architect)) assert.is(value, "rules-injector always included");
});

test("Kilo Code: .kilocode/rules always; its mode folders only for the mode in use; Kilo itself loads the root's rules", async () => {
  assert.equal(await explain("kilocode-modes", []), { ".kilocode/rules/errors.md": "rules-injector always included" });
  assert.equal(await explain("kilocode-modes", ["--mode", "debug"]), {
    ".kilocode/rules-debug/bisect.md": "rules-injector always included",
    ".kilocode/rules/errors.md": "rules-injector always included",
  });
  const root = materialize("kilocode-modes");
  // build --as: what that agent loads by itself.
  const asKilo = await runMain(["build", "--as", "kilo", "--mode", "debug", "--files", "src/main.ts"], { cwd: root });
  assert.is(asKilo.status, 0, asKilo.stderr);
  assert.match(asKilo.stdout, "MARK-KILOCODE-ERRORS", "Kilo loads the root's .kilocode/rules itself");
  assert.not.match(asKilo.stdout, "MARK-KILOCODE-DEBUG", "a mode folder Kilo was not seen to load is not claimed");
  const asClaude = await runMain(["build", "--as", "claude-code", "--files", "src/main.ts"], { cwd: root });
  assert.not.match(asClaude.stdout, "MARK-KILOCODE-ERRORS", "Claude Code does not read .kilocode");
});

test("Kiro: inclusion always/fileMatch/auto/manual, and no frontmatter means always", async () => {
  const got = await explain("kiro-inclusion", ["--files", "api/samples.rs", "--prompt", "the samples handler is slow, profile it"]);
  assert.equal(got, {
    ".kiro/steering/api-design.md": "rules-injector auto included",
    ".kiro/steering/oncall.md": "rules-injector manual manual",
    ".kiro/steering/perf.md": "rules-injector agent-requested included",
    ".kiro/steering/product.md": "rules-injector always included",
    ".kiro/steering/tech.md": "rules-injector always included",
  });
});

test("Continue: no globs applies always, globs match files, alwaysApply: false leaves it to the description or the user", async () => {
  const got = await explain("continue-rules", ["--files", "db/schema.sql", "--prompt", "invalidate the cache entries when a sample changes"]);
  assert.equal(got, {
    ".continue/rules/always.md": "rules-injector always included",
    ".continue/rules/basics.md": "rules-injector always included",
    ".continue/rules/caching.md": "rules-injector agent-requested included",
    ".continue/rules/sql.md": "rules-injector auto included",
    ".continue/rules/wiki.md": "rules-injector manual manual",
  });
});

test("Augment: type always_apply/agent_requested/manual, and the legacy .augment-guidelines", async () => {
  const got = await explain("augment-types", ["--prompt", "add translations for the new user-facing strings"]);
  assert.equal(got, {
    ".augment/rules/always.md": "rules-injector always included",
    ".augment/rules/deploy.md": "rules-injector manual manual",
    ".augment/rules/i18n.md": "rules-injector agent-requested included",
    ".augment-guidelines": "rules-injector always included",
  });
});

test("GEMINI.md, CRUSH.md, WARP.md, .goosehints and CONVENTIONS.md are folder files read from the root to the target", async () => {
  const got = await explain("agent-files-chain", ["--files", "svc/billing/invoice.ts"]);
  for (const id of ["AGENTS.md", "GEMINI.md", "CRUSH.md", "WARP.md", ".goosehints", "CONVENTIONS.md", "svc/billing/GEMINI.md", "svc/billing/.goosehints"]) {
    assert.is(got[id], "directory-agents directory included", id);
  }
  assert.is(got["svc/search/GEMINI.md"], undefined, "a folder off the target's path is not even read");
});

test("in one folder the agent files come root first, AGENTS.md before the other agents' files", async () => {
  const root = materialize("agent-files-chain");
  const { stdout } = await runMain(["build", "--files", "svc/billing/invoice.ts"], { cwd: root });
  const order = [...stdout.matchAll(/\(([a-z]+-[a-z-]+)\)$/gm)].map((m) => m[1]);
  assert.equal(order, ["agents-root", "gemini-root", "crush-root", "warp-root", "goose-root", "aider-conventions", "gemini-billing", "goose-billing"]);
});

test("a skill is agent-requested by its description; what arrives is its summary and where to read it", async () => {
  const root = materialize("skills");
  const { stdout, stderr } = await runMain(["build", "--prompt", "fill in the fields of this PDF form and flatten it"], { cwd: root });
  assert.match(stdout, 'Skill "pdf-forms": Fill in and flatten PDF forms');
  assert.match(stdout, "Its instructions are in .claude/skills/pdf-forms/SKILL.md");
  assert.not.match(stdout, "skill-pdf-body");
  assert.not.match(stdout, "Group entries under");
  assert.match(stderr, /no-description\/SKILL\.md: a skill needs a "description"/);
  const other = await runMain(["explain", "--json", "--prompt", "write the changelog entry for the 2.4 release"], { cwd: root });
  const rows = (JSON.parse(other.stdout) as { candidates: Row[] }).candidates;
  const status = Object.fromEntries(rows.map((r) => [r.id, `${r.source} ${r.status}`]));
  assert.is(status[".agents/skills/changelog/SKILL.md"], "skills included");
  assert.is(status[".claude/skills/pdf-forms/SKILL.md"], "skills below-threshold");
  assert.is(status[".claude/skills/no-description/SKILL.md"], "skills manual");
  assert.is(status[".claude/skills/pdf-forms/reference.md"], undefined);
});

test("every new source can be turned off in the config by its module name", async () => {
  const root = materialize("kiro-inclusion");
  writeFileSync(join(root, ".ctxinjectrc.json"), JSON.stringify({ sources: { kiro: { enabled: false } } }));
  const { stdout, status } = await runMain(["explain", "--json"], { cwd: root });
  assert.is(status, 0);
  const rows = (JSON.parse(stdout) as { candidates: Row[] }).candidates.filter((r) => r.id.startsWith(".kiro/"));
  assert.ok(rows.length > 0);
  assert.equal(
    rows.filter((r) => r.status === "included"),
    [],
  );
  const tech = rows.find((r) => r.id === ".kiro/steering/tech.md")!;
  assert.equal([tech.status, tech.reason], ["disabled", "source kiro is disabled in the config"]);
});

test.run();
