import { test } from "uvu";
import * as assert from "uvu/assert";
import { stemmer } from "stemmer";
import { reasonOf, select, statusOf } from "../helpers/tree.js";

const fm = (fields: string, body: string) => `---\n${fields}\n---\n${body}\n`;

test("decides the four rule kinds from their frontmatter", () => {
  const s = select(
    {
      ".cursor/rules/always.mdc": fm("alwaysApply: true", "Always."),
      ".cursor/rules/auto.mdc": fm("globs: src/**/*.ts", "Auto."),
      ".cursor/rules/agent.mdc": fm("description: Database migrations", "Agent."),
      ".cursor/rules/manual.mdc": "Manual.",
    },
    { targets: ["src/a.ts"] },
  );
  const kinds = Object.fromEntries(s.candidates.map((c) => [c.id, c.kind]));
  assert.equal(kinds, {
    ".cursor/rules/always.mdc": "always",
    ".cursor/rules/auto.mdc": "auto",
    ".cursor/rules/agent.mdc": "agent-requested",
    ".cursor/rules/manual.mdc": "manual",
  });
  assert.is(statusOf(s, ".cursor/rules/always.mdc"), "included");
  assert.is(statusOf(s, ".cursor/rules/auto.mdc"), "included");
  assert.is(reasonOf(s, ".cursor/rules/auto.mdc"), "glob src/**/*.ts matches src/a.ts");
  assert.is(statusOf(s, ".cursor/rules/agent.mdc"), "below-threshold");
  assert.is(statusOf(s, ".cursor/rules/manual.mdc"), "manual");
});

test("an auto rule whose globs match no target is unmatched", () => {
  const s = select({ ".cursor/rules/css.mdc": fm("globs: '**/*.css'", "CSS.") }, { targets: ["src/a.ts"] });
  assert.is(statusOf(s, ".cursor/rules/css.mdc"), "unmatched");
  assert.match(reasonOf(s, ".cursor/rules/css.mdc"), /no target matches \*\*\/\*\.css/);
});

test("a glob rule with a description that no target matches is weighed by its description; its kind stays auto", () => {
  const rule = fm("description: Writing and applying database migrations safely\nglobs: db/migrations/**", "Nullable first.");
  const s = select({ ".cursor/rules/db.mdc": rule }, { targets: ["src/a.ts"], prompt: "write a database migration", stem: stemmer });
  assert.is(statusOf(s, ".cursor/rules/db.mdc"), "included");
  assert.match(reasonOf(s, ".cursor/rules/db.mdc"), /^no target matches its globs; by its description: relevance 0\.\d+/);
  assert.is(s.candidates[0]!.kind, "auto");
  // Its globs still decide where they match, and without a prompt it waits in the index.
  assert.match(
    reasonOf(select({ ".cursor/rules/db.mdc": rule }, { targets: ["db/migrations/1.sql"] }), ".cursor/rules/db.mdc"),
    /^glob db\/migrations\/\*\* matches/,
  );
  assert.is(statusOf(select({ ".cursor/rules/db.mdc": rule }, { targets: ["src/a.ts"] }), ".cursor/rules/db.mdc"), "below-threshold");
});

test("explain never prints a score just under the threshold as the threshold itself (0.989 < 0.99, not 0.99 < 0.99)", () => {
  const rules = {
    ".cursor/rules/styling.mdc": fm("description: CSS modules, design tokens and dark mode", "No hex values."),
    ".cursor/rules/db.mdc": fm("description: Database migrations", "Nullable first."),
  };
  const s = select(rules, { prompt: "the css modules and dark mode", stem: stemmer, minRelevance: 0.99 });
  assert.is(statusOf(s, ".cursor/rules/styling.mdc"), "below-threshold");
  const reason = reasonOf(s, ".cursor/rules/styling.mdc");
  const [, shown, bound] = /relevance (\S+) .*< (\S+?)[ ,;]/.exec(reason) ?? [];
  assert.ok(shown !== undefined && Number(shown) < Number(bound), reason);
});

test("globs, paths and applyTo all mean the same", () => {
  const s = select(
    {
      ".cursor/rules/a.mdc": fm("globs: '*.ts'", "A"),
      ".claude/rules/b.md": fm("paths:\n  - '*.ts'", "B"),
      ".github/instructions/c.instructions.md": fm("applyTo: '*.ts'", "C"),
    },
    { targets: ["x/y.ts"] },
  );
  for (const c of s.candidates) assert.is(c.status, "included", c.id);
});

test(".claude/rules without paths, copilot-instructions.md and .cursorrules are always included", () => {
  const s = select({
    ".claude/rules/style.md": "# Style\nShort lines.",
    ".github/copilot-instructions.md": "Imperative commits.",
    ".cursorrules": "Small PRs.",
  });
  assert.equal(
    s.entries.map((e) => e.kind),
    ["always", "always", "always"],
  );
});

test("only *.instructions.md counts in .github/instructions", () => {
  const s = select({ ".github/instructions/notes.md": "Not a rule", ".github/instructions/x.instructions.md": "A rule" });
  assert.equal(
    s.candidates.map((c) => c.id),
    [".github/instructions/x.instructions.md"],
  );
});

test("--rule includes a manual rule by name, and an unknown name is a warning", () => {
  const s = select({ ".cursor/rules/release.mdc": "Release steps." }, { rules: ["release", "nope"] });
  assert.is(statusOf(s, ".cursor/rules/release.mdc"), "included");
  assert.is(reasonOf(s, ".cursor/rules/release.mdc"), "--rule release");
  assert.ok(s.warnings.some((w) => /--rule nope/.test(w.message)));
});

test("frontmatter priority overrides the source's default", () => {
  const s = select({ ".cursor/rules/a.mdc": fm("alwaysApply: true\npriority: critical", "Top"), "AGENTS.md": "Agents" });
  assert.equal(
    s.entries.map((e) => [e.id, e.priority]),
    [
      [".cursor/rules/a.mdc", "critical"],
      ["AGENTS.md", "normal"],
    ],
  );
});

test("an invalid priority falls back to the default with a warning", () => {
  const s = select({ ".cursor/rules/a.mdc": fm("alwaysApply: true\npriority: urgent", "X") });
  assert.is(s.entries[0]!.priority, "normal");
  assert.ok(s.warnings.some((w) => w.file === ".cursor/rules/a.mdc" && /priority/.test(w.message)));
});

test("nested rules apply only to targets under the folder that holds them", () => {
  const tree = { "packages/web/.cursor/rules/ui.mdc": fm("globs: src/**", "UI") };
  assert.is(statusOf(select(tree, { targets: ["packages/web/src/a.tsx"] }), "packages/web/.cursor/rules/ui.mdc"), "included");
  assert.is(statusOf(select(tree, { targets: ["packages/api/src/a.ts"] }), "packages/web/.cursor/rules/ui.mdc"), "unmatched");
  assert.is(statusOf(select(tree, { targets: ["src/a.ts"] }), "packages/web/.cursor/rules/ui.mdc"), "unmatched");
});

test("the AGENTS.md chain runs from the root to the nearest folder, most specific last", () => {
  const s = select(
    {
      "packages/web/src/AGENTS.md": "src",
      "AGENTS.md": "root",
      "packages/web/AGENTS.md": "web",
      "packages/api/AGENTS.md": "api",
    },
    { targets: ["packages/web/src/Button.tsx"] },
  );
  assert.equal(
    s.entries.map((e) => e.id),
    ["AGENTS.md", "packages/web/AGENTS.md", "packages/web/src/AGENTS.md"],
  );
  assert.is(statusOf(s, "packages/api/AGENTS.md"), "unmatched");
});

test("AGENTS.override.md replaces AGENTS.md in its folder", () => {
  const s = select({ "AGENTS.md": "old", "AGENTS.override.md": "new" });
  assert.equal(
    s.entries.map((e) => e.content),
    ["new"],
  );
  assert.is(statusOf(s, "AGENTS.md"), "overwritten");
  assert.is(reasonOf(s, "AGENTS.md"), "replaced by AGENTS.override.md");
});

test("READMEs come in at low priority, after everything else", () => {
  const s = select({ "README.md": "# Readme\n\nHow to run it.", "AGENTS.md": "Agents", ".cursorrules": "Rules" });
  assert.equal(
    s.entries.map((e) => [e.id, e.priority]),
    [
      [".cursorrules", "normal"],
      ["AGENTS.md", "normal"],
      ["README.md", "low"],
    ],
  );
});

test("root files come before nested ones whatever order they were found in", () => {
  const tree = {
    "packages/b/.cursor/rules/x.mdc": fm("alwaysApply: true", "B"),
    ".cursor/rules/z.mdc": fm("alwaysApply: true", "root z"),
    "packages/a/.cursor/rules/x.mdc": fm("alwaysApply: true", "A"),
    ".cursor/rules/a.mdc": fm("alwaysApply: true", "root a"),
  };
  const s = select(tree, { all: true });
  assert.equal(
    s.entries.map((e) => e.content),
    ["root a", "root z", "A", "B"],
  );
  const reversed = select(Object.fromEntries(Object.entries(tree).reverse()), { all: true });
  assert.equal(reversed.entries, s.entries);
});

test("a shallower folder's rules come before a deeper folder's, whatever their names; each priority keeps that order", () => {
  const s = select(
    {
      "a/b/.cursor/rules/x.mdc": fm("alwaysApply: true", "deep"),
      "z/.cursor/rules/x.mdc": fm("alwaysApply: true", "shallow z"),
      "a/.cursor/rules/x.mdc": fm("alwaysApply: true\npriority: low", "shallow a, low"),
      "a/b/.cursor/rules/y.mdc": fm("alwaysApply: true\npriority: critical", "deep, critical"),
      ".cursor/rules/r.mdc": fm("alwaysApply: true\npriority: low", "root, low"),
      "m/.cursor/rules/c.mdc": fm("alwaysApply: true\npriority: critical", "shallow m, critical"),
    },
    { all: true },
  );
  assert.equal(
    s.entries.map((e) => e.content),
    ["shallow m, critical", "deep, critical", "shallow z", "deep", "root, low", "shallow a, low"],
  );
});

test("the same body in .cursor/rules and .claude/rules is kept once, at its first place", () => {
  const s = select(
    { ".cursor/rules/ts.mdc": fm("globs: '*.ts'", "Prefer unknown."), ".claude/rules/ts.md": fm("paths: '*.ts'", "Prefer unknown.") },
    { targets: ["a.ts"] },
  );
  assert.equal(
    s.entries.map((e) => e.id),
    [".cursor/rules/ts.mdc"],
  );
  assert.is(statusOf(s, ".claude/rules/ts.md"), "duplicate");
  assert.is(reasonOf(s, ".claude/rules/ts.md"), "same content as .cursor/rules/ts.mdc");
});

test("a disabled source is listed as disabled and not injected", () => {
  const s = select({ "README.md": "readme", "AGENTS.md": "agents" }, { configure: (c) => void (c.sources["directory-readme"] = { enabled: false }) });
  assert.equal(
    s.entries.map((e) => e.id),
    ["AGENTS.md"],
  );
  assert.is(statusOf(s, "README.md"), "disabled");
});

test("a source's priority can be changed in the config", () => {
  const s = select({ "README.md": "readme", "AGENTS.md": "agents" }, { configure: (c) => void (c.sources["directory-readme"] = { priority: "critical" }) });
  assert.equal(
    s.entries.map((e) => e.id),
    ["README.md", "AGENTS.md"],
  );
});

test("config ignore globs keep a path out, with the glob as the reason", () => {
  const s = select({ "legacy/AGENTS.md": "old", "AGENTS.md": "root" }, { all: true, configure: (c) => void (c.ignore = ["legacy/**"]) });
  assert.equal(
    s.entries.map((e) => e.id),
    ["AGENTS.md"],
  );
  assert.is(statusOf(s, "legacy/AGENTS.md"), "disabled");
  assert.is(reasonOf(s, "legacy/AGENTS.md"), "matches ignore: legacy/**");
});

test("agents.skipRoot leaves the root AGENTS.md to the agent but keeps nested ones", () => {
  const s = select({ "AGENTS.md": "root", "pkg/AGENTS.md": "pkg" }, { targets: ["pkg/a.ts"], configure: (c) => void (c.agents.skipRoot = true) });
  assert.equal(
    s.entries.map((e) => e.id),
    ["pkg/AGENTS.md"],
  );
});

test("configured agent file names are read, and a symlinked copy is a duplicate", () => {
  const s = select(
    { "AGENTS.md": "same text", "CLAUDE.md": "same text", "GEMINI.md": "gemini" },
    { configure: (c) => void (c.agents.files = ["AGENTS.md", "CLAUDE.md", "GEMINI.md"]) },
  );
  assert.equal(
    s.entries.map((e) => e.id),
    ["AGENTS.md", "GEMINI.md"],
  );
  assert.is(statusOf(s, "CLAUDE.md"), "duplicate");
});

test("a file reached through a symlink is one candidate, under its real path, naming the other path", () => {
  const s = select(
    {},
    {
      files: [
        { path: "AGENTS.md", text: "shared" },
        { path: "CLAUDE.md", text: "shared", realPath: "AGENTS.md" },
      ],
      configure: (c) => void (c.agents.files = ["AGENTS.md", "CLAUDE.md"]),
    },
  );
  assert.equal(
    s.candidates.map((c) => c.id),
    ["AGENTS.md"],
  );
  assert.equal(s.candidates[0]!.aliases, ["CLAUDE.md"]);
  assert.is(statusOf(s, "AGENTS.md"), "included");
});

test("custom entries join the build, and the later of two with one id wins", () => {
  const s = select(
    {},
    {
      custom: [
        { id: "style", content: "first" },
        { id: "style", content: "second", priority: "high" },
      ],
    },
  );
  assert.equal(
    s.entries.map((e) => [e.id, e.content, e.priority]),
    [["style", "second", "high"]],
  );
  assert.is(s.candidates.filter((c) => c.status === "overwritten").length, 1);
});

test("an empty rule is invalid, not injected", () => {
  const s = select({ ".cursor/rules/empty.mdc": fm("alwaysApply: true", "") });
  assert.is(statusOf(s, ".cursor/rules/empty.mdc"), "invalid");
  assert.is(s.entries.length, 0);
});

test("--all includes every rule whatever its kind", () => {
  const s = select(
    {
      ".cursor/rules/auto.mdc": fm("globs: '*.css'", "Auto."),
      ".cursor/rules/agent.mdc": fm("description: d", "Agent."),
      ".cursor/rules/manual.mdc": "Manual.",
      "pkg/AGENTS.md": "nested",
    },
    { all: true },
  );
  assert.is(s.entries.length, 4);
  assert.is(reasonOf(s, ".cursor/rules/auto.mdc"), "--all (auto: *.css)");
});

test("agent-requested rules are listed in the omitted index with their description", () => {
  const s = select({ ".cursor/rules/db.mdc": fm("description: Database migrations", "Body") });
  assert.equal(
    s.omitted.map((o) => [o.path, o.description]),
    [[".cursor/rules/db.mdc", "Database migrations"]],
  );
});

test("applyTo '**' applies with or without targets", () => {
  const s = select({ ".github/instructions/all.instructions.md": fm("applyTo: '**'", "Everywhere.") });
  assert.is(statusOf(s, ".github/instructions/all.instructions.md"), "included");
});

test("explain order is final order: priority first, then registration", () => {
  const s = select({ "README.md": "r", ".cursor/rules/c.mdc": fm("alwaysApply: true\npriority: critical", "c"), ".cursor/rules/m.mdc": "manual" });
  assert.equal(
    s.candidates.map((c) => c.id),
    [".cursor/rules/c.mdc", ".cursor/rules/m.mdc", "README.md"],
  );
});

test("at equal priority, entries registered into a session come before the repository's entries", () => {
  const s = select(
    { "AGENTS.md": "Repository notes.", ".cursorrules": "Legacy rules." },
    { custom: [{ id: "from-hook", content: "Registered earlier by a git hook.", kind: "session", source: "git-hook" }] },
  );
  assert.equal(
    s.entries.map((e) => e.id),
    ["from-hook", ".cursorrules", "AGENTS.md"],
  );
});

// Six lines long enough to count (near-copy.ts: at least 20 characters each), shared by the copies below.
const RULE_LINES = [
  "Handlers return a Result value instead of throwing across the boundary.",
  "Every public function has an explicit return type written out in full.",
  "Log through the shared logger module so that request ids are attached.",
  "Database access goes through the repository layer, never raw queries.",
  "Tests for a handler sit beside it and name the behaviour they assert.",
  "Feature flags are read once at start-up and passed down as arguments.",
  "Errors shown to users never include stack traces or internal paths.",
  "Time zones are stored as UTC and converted only at the display edge.",
  "Retries use the shared backoff helper with a ceiling of five attempts.",
  "Each module exports one thing whose name matches the file that holds it.",
];
const body = (lines: string[]) => lines.map((l) => `- ${l}`).join("\n");

test("a near copy of a rule for another agent (a link and a line changed) is sent once, naming the kept one", () => {
  const edited = [...RULE_LINES.slice(0, 9), "See [the Claude guide](../../CLAUDE.md) for the commit format we follow."];
  const original = [...RULE_LINES.slice(0, 9), "See [the Cursor guide](./guide.mdc) for the commit format we follow."];
  const s = select(
    { ".cursor/rules/ts.mdc": fm("globs: '*.ts'", body(original)), ".claude/rules/ts.md": fm("paths: '*.ts'", body(edited)) },
    { targets: ["a.ts"] },
  );
  assert.equal(
    s.entries.map((e) => e.id),
    [".cursor/rules/ts.mdc"],
  );
  assert.is(statusOf(s, ".claude/rules/ts.md"), "duplicate");
  assert.match(reasonOf(s, ".claude/rules/ts.md"), /^a near copy of \.cursor\/rules\/ts\.mdc: \d+ of 10 lines the same$/);
});

test("of two near copies the stronger evidence stays: a glob match of the target before a README", () => {
  const readme = `# Service\n\n${body([...RULE_LINES.slice(0, 9), "Run the service locally with the compose file in the deploy folder."])}`;
  const s = select({ "README.md": readme, ".cursor/rules/ts.mdc": fm("globs: '*.ts'", body(RULE_LINES)) }, { targets: ["a.ts"] });
  assert.equal(
    s.entries.map((e) => e.id),
    [".cursor/rules/ts.mdc"],
  );
  assert.match(reasonOf(s, "README.md"), /near copy of \.cursor\/rules\/ts\.mdc/);
});

test("a short text mostly inside a longer one goes; texts sharing under nine tenths both stay", () => {
  const s = select(
    {
      ".cursor/rules/all.mdc": fm("alwaysApply: true", body(RULE_LINES)),
      ".cursor/rules/part.mdc": fm("alwaysApply: true", body(RULE_LINES.slice(0, 6).reverse())),
      ".cursor/rules/half.mdc": fm(
        "alwaysApply: true",
        body([
          ...RULE_LINES.slice(4, 8),
          "Configuration is read from the environment and validated by a schema.",
          "Public endpoints are documented in the OpenAPI file before they ship.",
        ]),
      ),
    },
    { targets: ["a.ts"] },
  );
  assert.equal(s.entries.map((e) => e.id).sort(), [".cursor/rules/all.mdc", ".cursor/rules/half.mdc"]);
  assert.is(reasonOf(s, ".cursor/rules/part.mdc"), "6 of its 6 lines are in .cursor/rules/all.mdc");
});

test("texts of fewer than five long lines are never called near copies", () => {
  const s = select(
    {
      ".cursor/rules/a.mdc": fm("alwaysApply: true", body(RULE_LINES.slice(0, 4))),
      ".cursor/rules/b.mdc": fm("alwaysApply: true", `${body(RULE_LINES.slice(0, 4).reverse())}\n- Short.`),
    },
    { targets: ["a.ts"] },
  );
  assert.equal(
    s.entries.map((e) => e.id),
    [".cursor/rules/a.mdc", ".cursor/rules/b.mdc"],
  );
});

test("a near copy of what the agent loads itself is not sent", () => {
  const claudeMd = body([...RULE_LINES.slice(0, 9), "Commit messages follow the conventional format with a scope in brackets."]);
  const s = select(
    { "CLAUDE.md": claudeMd, ".cursor/rules/ts.mdc": fm("alwaysApply: true", body(RULE_LINES)) },
    {
      targets: ["a.ts"],
      configure: (c) => void (c.agents.files = ["AGENTS.md", "CLAUDE.md"]),
      exclude: (c) => (c.path === "CLAUDE.md" ? "Claude Code loads it itself" : null),
    },
  );
  assert.equal(
    s.entries.map((e) => e.id),
    [],
  );
  assert.match(reasonOf(s, ".cursor/rules/ts.mdc"), /^a near copy of CLAUDE\.md: 9 of 10 lines the same \(Claude Code loads it itself\)$/);
});
test.run();
