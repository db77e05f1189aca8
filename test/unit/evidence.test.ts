import { test } from "uvu";
import * as assert from "uvu/assert";
import { evidenceStrength, nearestAgentFiles, weakestFirst } from "../../src/core/budget/evidence.js";
import type { Candidate } from "../../src/core/types.js";

const candidate = (id: string, extra: Partial<Candidate>): Candidate => ({
  source: "rules-injector",
  id,
  priority: "normal",
  kind: "always",
  path: id,
  content: id,
  description: null,
  globs: [],
  tokens: 10,
  status: "included",
  reason: "",
  truncated: false,
  ...extra,
});

test("the weakest evidence goes first: README, guesses from the lowest score, the far end of the chain, then what was asked for", () => {
  const candidates = [
    candidate(".cursor/rules/always.mdc", { kind: "always" }),
    candidate(".kiro/steering/strong-guess.md", { kind: "agent-requested", score: 0.9 }),
    candidate(".kiro/steering/weak-guess.md", { kind: "agent-requested", score: 0.3 }),
    candidate(".kiro/steering/glob.md", { kind: "auto" }),
    candidate("AGENTS.md", { source: "directory-agents", kind: "directory" }),
    candidate("pkg/AGENTS.md", { source: "directory-agents", kind: "directory" }),
    candidate("README.md", { source: "directory-readme", kind: "directory", priority: "low" }),
    candidate("pkg/README.md", { source: "directory-readme", kind: "directory", priority: "low" }),
  ];
  const nearest = nearestAgentFiles(candidates, ["pkg/src/a.ts"]);
  assert.equal([...nearest], ["pkg/AGENTS.md"]);
  const order = weakestFirst(candidates.map((c) => evidenceStrength(c, nearest))).map((i) => candidates[i]!.id);
  assert.equal(order, [
    "README.md",
    "pkg/README.md",
    ".kiro/steering/weak-guess.md",
    ".kiro/steering/strong-guess.md",
    "AGENTS.md",
    "pkg/AGENTS.md",
    ".kiro/steering/glob.md",
    ".cursor/rules/always.mdc",
  ]);
});

test("a higher priority outlasts any evidence of a lower one", () => {
  const guess = candidate("guess.md", { kind: "agent-requested", score: 0.3, priority: "high" });
  const always = candidate("always.md", { kind: "always", priority: "normal" });
  const order = weakestFirst([guess, always].map((c) => evidenceStrength(c, new Set()))).map((i) => i);
  assert.equal(order, [1, 0]);
});

test("AGENTS.md and CLAUDE.md in the nearest folder are both the nearest agent files; without targets the root's are", () => {
  const files = ["AGENTS.md", "CLAUDE.md", "pkg/AGENTS.md", ".claude/CLAUDE.md"].map((p) => candidate(p, { source: "directory-agents", kind: "directory" }));
  assert.equal([...nearestAgentFiles(files, ["src/a.ts"])].sort(), [".claude/CLAUDE.md", "AGENTS.md", "CLAUDE.md"]);
  assert.equal([...nearestAgentFiles(files, [])].sort(), [".claude/CLAUDE.md", "AGENTS.md", "CLAUDE.md"]);
  assert.equal([...nearestAgentFiles(files, ["pkg/x/y.ts"])], ["pkg/AGENTS.md"]);
});

test("a glob that names the target itself outlasts an always-rule and a broad glob of the same priority", () => {
  const exact = candidate(".cursor/rules/widget.mdc", { kind: "auto", globs: ["lib/widget.js"] });
  const bare = candidate("pkg/.cursor/rules/name.mdc", { kind: "auto", globs: ["widget.js"] });
  const broad = candidate(".cursor/rules/lib.mdc", { kind: "auto", globs: ["lib/*.js"] });
  const always = candidate(".cursor/rules/style.mdc", { kind: "always" });
  const targets = ["lib/widget.js"];
  const list = [exact, bare, broad, always];
  const order = weakestFirst(list.map((c) => evidenceStrength(c, new Set(), targets))).map((i) => list[i]!.id);
  assert.equal(order.slice(0, 2), [".cursor/rules/style.mdc", ".cursor/rules/lib.mdc"]);
  assert.equal(order.slice(2).sort(), [".cursor/rules/widget.mdc", "pkg/.cursor/rules/name.mdc"]);
  // Another target's exact glob is no evidence for this one.
  assert.equal(evidenceStrength(exact, new Set(), ["lib/other.js"]), evidenceStrength(broad, new Set(), ["lib/other.js"]));
});

test.run();
