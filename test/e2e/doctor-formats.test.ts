import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, git, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

test.after(cleanup);

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: Array<{ physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region: { startLine: number } } }>;
}

// A fresh copy per test: uvu imports every file before running any, and each suite's cleanup removes all copies made.
async function doctorTree() {
  const root = materialize("doctor");
  const json = JSON.parse((await runMain(["doctor", "--json"], { cwd: root })).stdout) as {
    findings: Array<{ severity: string; kind: string; file: string; line?: number }>;
  };
  return { root, json };
}

test("doctor --format sarif prints SARIF 2.1.0 with every field code scanning requires, exiting as the text format does", async () => {
  const { root, json } = await doctorTree();
  const { status, stdout, stderr } = await runMain(["doctor", "--format", "sarif"], { cwd: root });
  assert.is(status, 1, stderr);
  const log = JSON.parse(stdout) as {
    version: string;
    $schema: string;
    runs: Array<{ tool: { driver: { name: string; rules: Array<{ id: string; shortDescription: { text: string } }> } }; results: SarifResult[] }>;
  };
  assert.is(log.version, "2.1.0");
  assert.match(log.$schema, "sarif");
  assert.is(log.runs.length, 1);
  const [run] = log.runs;
  assert.is(run!.tool.driver.name, "ctxinject");
  const ids = run!.tool.driver.rules.map((r) => r.id);
  assert.equal(ids, [...new Set(json.findings.map((f) => f.kind))].sort());
  for (const rule of run!.tool.driver.rules) assert.ok(rule.shortDescription.text.length > 0 && rule.shortDescription.text !== rule.id, rule.id);
  assert.is(run!.results.length, json.findings.length);
  run!.results.forEach((result, i) => {
    const finding = json.findings[i]!;
    assert.is(result.ruleId, finding.kind);
    assert.is(ids[result.ruleIndex], result.ruleId);
    assert.is(result.level, { error: "error", warning: "warning", info: "note" }[finding.severity]);
    assert.ok(result.message.text.length > 0);
    const { artifactLocation, region } = result.locations[0]!.physicalLocation;
    assert.is(artifactLocation.uri, finding.file, "relative to the repository root");
    assert.is(artifactLocation.uriBaseId, "%SRCROOT%");
    assert.ok(Number.isInteger(region.startLine) && region.startLine >= 1);
    assert.is(region.startLine, finding.line ?? 1);
  });
  assert.is((await runMain(["doctor", "--format", "sarif", "--fail-on", "none"], { cwd: root })).status, 0);
});

test("doctor --format github prints one workflow command per finding, on its file and line", async () => {
  const { root, json } = await doctorTree();
  const { status, stdout } = await runMain(["doctor", "--format", "github"], { cwd: root });
  assert.is(status, 1);
  const lines = stdout.trimEnd().split("\n");
  assert.is(lines.length, json.findings.length);
  for (const line of lines) assert.match(line, /^::(error|warning|notice) file=[^,:]+(,line=\d+)?,title=[^,:]+::\S/);
  assert.ok(lines.some((l) => l.startsWith("::error file=.cursor/rules/string-true.mdc,line=2,title=always-apply-string [cursor]::")));
  assert.ok(lines.some((l) => l.startsWith("::notice file=.cursor/rules/long.mdc,title=long-rule [cursor]::")));
});

test("doctor --format github escapes what would end or forge a command: % CR LF in messages, also : and , in properties", async () => {
  const dir = materialize("doctor-placeholder-readme");
  const name = ".cursor/rules/100%, ready: now.mdc";
  mkdirSync(join(dir, ".cursor/rules"), { recursive: true });
  writeFileSync(join(dir, name), "---\nalwaysApply: true\n---\nNever log ses\u200Bsion tokens.\n");
  git(dir, "add", "-A");
  const { stdout } = await runMain(["doctor", "--format", "github"], { cwd: dir });
  assert.match(stdout, "::error file=.cursor/rules/100%25%2C ready%3A now.mdc,line=4,title=hidden-characters [cursor]::");
});

test("doctor --help names the formats", async () => {
  const { stdout } = await runMain(["doctor", "--help"]);
  assert.match(stdout, /--format <format>/);
  for (const format of ["text", "json", "sarif", "github"]) assert.match(stdout, format);
  assert.is((await runMain(["doctor", "--format", "xml"], { cwd: materialize("doctor") })).status, 2);
});

test.run();
