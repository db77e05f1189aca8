import { test } from "uvu";
import * as assert from "uvu/assert";
import { escapeData, escapeProperty, renderGithub, renderSarif } from "../../src/core/doctor/formats.js";
import type { Finding } from "../../src/core/doctor/finding.js";

const finding: Finding = {
  severity: "warning",
  kind: "frontmatter-yaml",
  agent: "cline, cursor",
  file: "a,b/c:d.md",
  line: 3,
  message: "50% done\r\nnext line",
};

test("a workflow command's message escapes % CR LF; a property also : and ,", () => {
  assert.is(escapeData("100% ok\r\n::error::x"), "100%25 ok%0D%0A::error::x");
  assert.is(escapeProperty("a,b: 100%\n"), "a%2Cb%3A 100%25%0A");
  assert.is(renderGithub([finding]), "::warning file=a%2Cb/c%3Ad.md,line=3,title=frontmatter-yaml [cline%2C cursor]::50%25 done%0D%0Anext line\n");
});

test("an info finding is a notice without a line when it has none; no findings, no output", () => {
  assert.is(renderGithub([{ ...finding, severity: "info", line: undefined as unknown as number }]).split(" ")[0], "::notice");
  assert.not.match(renderGithub([{ severity: "info", kind: "long-rule", agent: "kiro", file: "x.md", message: "m" }]), "line=");
  assert.is(renderGithub([]), "");
});

test("SARIF: a finding about a whole file points at line 1, its path a relative URI, its agents a property", () => {
  const log = JSON.parse(renderSarif([{ severity: "info", kind: "long-rule", agent: "kiro", file: ".kiro/steering/a b.md", message: "m" }], "1.2.3"));
  const result = log.runs[0].results[0];
  assert.equal(result.locations[0].physicalLocation, {
    artifactLocation: { uri: ".kiro/steering/a%20b.md", uriBaseId: "%SRCROOT%" },
    region: { startLine: 1 },
  });
  assert.is(result.level, "note");
  assert.equal(result.properties.agents, ["kiro"]);
  assert.is(log.runs[0].tool.driver.semanticVersion, "1.2.3");
  assert.equal(log.runs[0].tool.driver.rules[0].defaultConfiguration, { level: "note" });
});

test.run();
