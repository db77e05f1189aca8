import { test } from "uvu";
import * as assert from "uvu/assert";
import { driftedCopies } from "../../src/core/phases/drifted-copy.js";
import type { Candidate } from "../../src/core/types.js";

const lines = (topic: string, from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `Rule ${from + i} about ${topic}: ask the check, never decide alone.`);
const rule = (path: string, text: string[], source = "rules-injector"): Candidate => ({
  source,
  id: path,
  priority: "normal",
  kind: "always",
  path,
  content: text.join("\n"),
  description: null,
  globs: [],
  tokens: 0,
  status: "included",
  reason: "",
  truncated: false,
});
// Twelve lines in common, each copy with a paragraph of its own: neither holds nine tenths of the other.
const common = lines("permissions", 0, 12);
const cursor = rule(".cursor/rules/permissions.mdc", [...common, ...lines("service accounts, old", 0, 5)]);
const claude = rule(".claude/rules/permissions.md", [...common, ...lines("service accounts, new", 0, 4)]);
const pairs = (sent: Candidate[], known: Candidate[] = []) => driftedCopies(sent, known).map((d) => [d.copy.path, d.kept.path, d.shared, d.lines]);

test("two agents' copies of one rule that drifted by a paragraph: the longer is kept, the other named with the lines they share", () => {
  assert.equal(pairs([claude, cursor]), [[claude.path, cursor.path, 12, 16]]);
});

test("the copy the agent has is kept, however long the other", () => {
  assert.equal(pairs([cursor], [claude]), [[cursor.path, claude.path, 12, 17]]);
});

test("no pair without the same name in the same folder, or with less than two thirds of the longer's lines in common", () => {
  assert.equal(pairs([claude, rule(".cursor/rules/access.mdc", cursor.content.split("\n"))]), []);
  assert.equal(pairs([claude, rule("pkg/.cursor/rules/permissions.mdc", cursor.content.split("\n"))]), []);
  assert.equal(pairs([claude, rule(".cursor/rules/permissions.mdc", [...common.slice(0, 6), ...lines("other", 0, 8)])]), []);
  assert.equal(pairs([claude, rule("README.md", cursor.content.split("\n"), "directory-readme")]), []);
});

test("a Copilot instructions file of the same name is a copy too", () => {
  const copilot = rule(".github/instructions/permissions.instructions.md", [...common, ...lines("service accounts, new", 0, 3)]);
  assert.equal(pairs([claude, copilot]), [[copilot.path, claude.path, 15, 15]]);
});

test.run();
