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

// The megarepo's .roo and .continue copies: an opening in common and a longer half of its own in each, too little
// in common to be one rule (8 of 28 lines), until the session gave one of them cut at its opening.
const opening = lines("releases", 0, 8);
const roo = rule(".roo/rules/release.md", [...opening, ...lines("hotfixes", 0, 20)]);
const given = (c: Candidate, sentChars?: number): Candidate => ({ ...c, status: "already-injected", ...(sentChars !== undefined && { sentChars }) });
const continueCopy = rule(".continue/rules/release.md", [...opening, ...lines("mobile apps", 0, 20)]);
const openingChars = opening.join("\n").length;

test("a copy holding what the session gave of the other (cut at its opening, or whole) is left out: the given lines counted", () => {
  assert.equal(
    driftedCopies([continueCopy], [given(roo, openingChars)]).map((d) => [d.copy.path, d.kept.path, d.shared, d.lines, d.given]),
    [[continueCopy.path, roo.path, 8, 8, true]],
  );
  // Given whole, a copy holding all of it grew a half of its own: not sent either.
  assert.equal(pairs([continueCopy], [given(rule(roo.path!, opening))]), [[continueCopy.path, roo.path, 8, 8]]);
});

test("not when the session gave the other whole, loaded it itself, or gave a cut the copy does not hold", () => {
  assert.equal(pairs([continueCopy], [given(roo)]), []);
  assert.equal(pairs([continueCopy], [{ ...roo, status: "disabled", sentChars: openingChars }]), []);
  const hotfixesFirst = rule(roo.path!, [...lines("hotfixes", 0, 20), ...opening]);
  assert.equal(pairs([continueCopy], [given(hotfixesFirst, lines("hotfixes", 0, 8).join("\n").length)]), []);
});

test.run();
