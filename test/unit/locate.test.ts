import { test } from "uvu";
import * as assert from "uvu/assert";
import { locateSource } from "../../src/core/sources/index.js";
import { localName, overrideName } from "../../src/core/sources/agents.js";
import { ruleName } from "../../src/core/sources/rules.js";
import { hasSegments } from "../../src/core/rel-path.js";
import { createRunMemo } from "../../src/core/run-memo.js";

const opts = { agentFiles: ["AGENTS.md", "CLAUDE.md"], ruleDirs: ["docs/rules"] };
const where = (path: string) => {
  const l = locateSource(path, opts);
  return l === null ? null : l.module.name === "agents" ? `agents:${l.matched}@${l.anchor}` : `${l.module.name}@${l.anchor}`;
};

test("every rules folder and single-file rule is found at the root and nested, anchored at the folder above it", () => {
  assert.equal(
    [
      ".cursor/rules/a.mdc",
      "packages/web/.cursor/rules/sub/b.md",
      ".claude/rules/c.md",
      "docs/kord/rules/d.mdc",
      ".github/instructions/e.instructions.md",
      ".github/copilot-instructions.md",
      "pkg/.cursorrules",
      "pkg/docs/rules/f.md",
    ].map(where),
    ["cursor@", "cursor@packages/web", "claude-rules@", "kord@", "copilot-instructions@", "copilot@", "cursorrules@pkg", "rules-dirs@pkg"],
  );
});

test("agent files, their overrides and READMEs are found; look-alikes are not", () => {
  assert.equal(["AGENTS.md", "pkg/CLAUDE.md", "pkg/AGENTS.override.md", "pkg/README.md"].map(where), [
    "agents:AGENTS.md@",
    "agents:CLAUDE.md@pkg",
    "agents:AGENTS.override.md@pkg",
    "readme@pkg",
  ]);
  assert.equal([".github/instructions/notes.md", ".claude/rules/x.mdc", "x.cursorrules", "GEMINI.md.bak", "readme.md", "src/a.ts"].map(where), [
    null,
    null,
    null,
    null,
    null,
    null,
  ]);
});

test("a whole tree's paths are classified as a hook's few are (past the point where one expression scans them)", () => {
  // One run's locator, asked for nothing yet.
  const wide = { agentFiles: ["AGENTS.md"], ruleDirs: ["docs/wide-rules"] };
  const memo = createRunMemo();
  const at = (path: string) => {
    const l = locateSource(path, wide, memo);
    return l === null ? null : `${l.module.name}@${l.anchor}`;
  };
  for (let i = 0; i < 400; i++) {
    assert.is(at(`pkg${i}/.cursor/rules/r${i}.mdc`), `cursor@pkg${i}`, `path ${i}`);
    assert.is(at(`pkg${i}/docs/wide-rules/r.md`), `rules-dirs@pkg${i}`, `path ${i}`);
    assert.is(at(`pkg${i}/.cursor/rules-old/r.mdc`), null, `path ${i}`);
    assert.is(at(`pkg${i}/src/r${i}.ts`), null, `path ${i}`);
    assert.is(at(`pkg${i}/.cursor/rules/README.md`), `cursor@pkg${i}`, `path ${i}`);
  }
});

test("a folder is found in a path only as whole segments, wherever it stands", () => {
  const inside = ["node_modules", "node_modules/a/AGENTS.md", "pkg/node_modules/AGENTS.md", "pkg/node_modules", "a/xnode_modules/b/node_modules/c.md"];
  const outside = ["xnode_modules/AGENTS.md", "pkg/node_modulesx/a.md", "pkg/node_module/a.md", "node_modules.md", ""];
  assert.equal(
    inside.map((p) => hasSegments(p, "node_modules")),
    inside.map(() => true),
  );
  assert.equal(
    outside.map((p) => hasSegments(p, "node_modules")),
    outside.map(() => false),
  );
  // .git is the start of .github; several segments are matched as one.
  assert.equal(
    [".github/AGENTS.md", "a/.gitignore", "a/.git/HEAD", ".git"].map((p) => hasSegments(p, ".git")),
    [false, false, true, true],
  );
  assert.equal(
    ["pkg/.claude/rules/a.md", "pkg/.claude/rulesx/a.md", "pkg/x.claude/rules/a.md"].map((p) => hasSegments(p, ".claude/rules")),
    [true, false, false],
  );
});

test("a rule is named by its file name without its rule suffix, in any case, and without a leading dot", () => {
  assert.equal(
    ["docs/api.instructions.md", "x/.cursor/rules/DB.MDC", "a/b/style.Md", ".clinerules", "notes.markdown", "a.instructions.mdc", "md"].map(ruleName),
    ["api", "DB", "style", "clinerules", "notes.markdown", "a.instructions", "md"],
  );
});

test("an agents file's override and local files replace its .md in any case, or follow a name without one", () => {
  assert.equal(["AGENTS.md", "CLAUDE.MD", ".goosehints", "md"].map(overrideName), [
    "AGENTS.override.md",
    "CLAUDE.override.md",
    ".goosehints.override.md",
    "md.override.md",
  ]);
  assert.equal(["CLAUDE.md", "GEMINI.Md"].map(localName), ["CLAUDE.local.md", "GEMINI.local.md"]);
});

test.run();
