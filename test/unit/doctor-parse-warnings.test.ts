import { test } from "uvu";
import * as assert from "uvu/assert";
import { defaultConfig } from "../../src/core/config.js";
import { diagnose } from "../../src/core/doctor/index.js";
import { AGENT_PROFILES } from "../../src/hosts/index.js";
import { select } from "../helpers/tree.js";

/** doctor's findings from the selection's parse warnings, as `kind file:line severity: message`. */
function parseFindings(tree: Record<string, string>): string[] {
  const selection = select(tree, { all: true });
  const files = Object.entries(tree).map(([path, text]) => ({ path, text }));
  const tracked = Object.keys(tree).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const findings = diagnose({
    files,
    selection,
    tracked,
    config: defaultConfig(),
    exists: (p) => tracked.includes(p),
    profiles: Object.values(AGENT_PROFILES),
  });
  const kinds = new Set(["bad-glob-field", "import-depth", "hidden-characters", "frontmatter-yaml", "secret"]);
  return findings.filter((f) => kinds.has(f.kind)).map((f) => `${f.kind} ${f.file}:${f.line} ${f.severity}: ${f.message}`);
}

test("a glob field agents cannot read, imports nested too deep and a field whose escapes spell hidden text are findings where the warning points", () => {
  const chain: Record<string, string> = { "CLAUDE.md": "@d1.md\n" };
  for (let i = 1; i <= 7; i++) chain[`d${i}.md`] = `Level ${i}.\n@d${i + 1}.md\n`;
  const findings = parseFindings({
    ".cursor/rules/numbers.mdc": "---\ndescription: Numbers\nglobs: 5\n---\nUse numbers.\n",
    ".github/instructions/open.instructions.md": "---\napplyTo: [src/**\n---\nOpen list.\n",
    ".cursor/rules/zero-width.mdc": '---\ndescription: "Deploy\\u200Bnow"\nalwaysApply: true\n---\nDeploy.\n',
    ...chain,
  });
  assert.ok(
    findings.includes('bad-glob-field .cursor/rules/numbers.mdc:3 warning: "globs": expected a string or a list of strings, got 5; the field is ignored'),
    findings.join("\n"),
  );
  assert.ok(
    findings.some((f) => f.startsWith('bad-glob-field .github/instructions/open.instructions.md:2 warning: "applyTo": a list opened with [ is never closed')),
    findings.join("\n"),
  );
  assert.ok(
    findings.some(
      (f) =>
        f.startsWith('hidden-characters .cursor/rules/zero-width.mdc:2 error: "description": its escapes spell') &&
        f.endsWith("; removed: text a reviewer cannot see, which a model reads"),
    ),
    findings.join("\n"),
  );
  assert.ok(
    findings.some((f) => f.startsWith("import-depth d5.md:2 warning: imports nest deeper than 5 levels")),
    findings.join("\n"),
  );
});

test("a credential a field's escapes spell is a secret finding where the warning points, not hidden characters", () => {
  // `\u0067` is `g`: the file's text holds no token, the field's value does once YAML reads it.
  const token = `\\u0067hp_${"a1B2c3D4e5".repeat(4)}`;
  const findings = parseFindings({
    ".cursor/rules/token.mdc": `---\ndescription: "Deploy with ${token}"\nalwaysApply: true\n---\nDeploy.\n`,
  });
  assert.ok(
    findings.some((f) => f.startsWith('secret .cursor/rules/token.mdc:2 error: "description": its escapes spell a credential (github-token)')),
    findings.join("\n"),
  );
  assert.not.ok(
    findings.some((f) => f.startsWith("hidden-characters .cursor/rules/token.mdc")),
    findings.join("\n"),
  );
});

test.run();
