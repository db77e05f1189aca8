import { test } from "uvu";
import * as assert from "uvu/assert";
import { defaultConfig } from "../../src/core/config.js";
import { diagnose } from "../../src/core/doctor/index.js";
import { AGENT_PROFILES } from "../../src/hosts/index.js";
import { select } from "../helpers/tree.js";

const fm = (fields: string, body: string) => `---\n${fields}\n---\n${body}\n`;

/** doctor's glob findings for a tree of rules and the other files git tracks. */
function globFindings(rules: Record<string, string>, code: string[]): string[] {
  const selection = select(rules, { all: true });
  const files = Object.entries(rules).map(([path, text]) => ({ path, text }));
  const tracked = [...Object.keys(rules), ...code].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const findings = diagnose({ files, selection, tracked, config: defaultConfig(), exists: (p) => tracked.includes(p), profiles: [AGENT_PROFILES.cursor!] });
  return findings.filter((f) => f.kind === "dead-glob" || f.kind === "glob-matches-everything").map((f) => `${f.kind} ${f.file}`);
}

test("a package's globs are matched against its own files only, not a sibling whose name starts the same, nor the next package", () => {
  const rules = {
    "packages/a/.cursor/rules/api.mdc": fm('globs: "src/**"', "API rules."),
    "packages/a/.cursor/rules/md.mdc": fm('globs: "*.md"', "Notes."),
    "packages/a/.cursor/rules/all.mdc": fm('globs: ["**/*.ts", "**/*.md", "**/*.mdc"]', "Everything in a."),
    "packages/b/.cursor/rules/all.mdc": fm('globs: ["**/*.ts", "**/*.mdc"]', "Everything here."),
    "packages/c/.cursor/rules/all.mdc": fm('globs: ["**/*.ts", "**/*.mdc"]', "Everything here too."),
  };
  // packages/a-b sorts before packages/a/ and packages/b's files right after packages/a's: both next to a's range.
  const code = [
    "packages/a-b/src/x.ts",
    "packages/a/index.ts",
    "packages/a/notes.md",
    "packages/b/src/x.ts",
    "packages/b/src/y.ts",
    "packages/c/src/z.ts",
    "packages/c/src/z.md",
    "z.md",
  ];
  assert.equal(globFindings(rules, code), [
    "glob-matches-everything packages/a/.cursor/rules/all.mdc",
    "dead-glob packages/a/.cursor/rules/api.mdc",
    "glob-matches-everything packages/b/.cursor/rules/all.mdc",
  ]);
});

test.run();
