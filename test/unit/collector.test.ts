import { test } from "uvu";
import * as assert from "uvu/assert";
import { ContextCollector, SEPARATOR } from "../../src/core/collector.js";

test("registers an entry and reports it pending for that session only", () => {
  const c = new ContextCollector();
  c.register("s1", { id: "ulw", source: "keyword-detector", content: "Ultrawork mode" });
  assert.ok(c.hasPending("s1"));
  assert.not.ok(c.hasPending("s2"));
  const pending = c.getPending("s1");
  assert.ok(pending.hasContent);
  assert.is(pending.entries.length, 1);
  assert.is(pending.entries[0]!.priority, "normal");
  assert.is(pending.merged, "Ultrawork mode");
});

test("the same id from two sources is two entries", () => {
  const c = new ContextCollector();
  c.register("s", { id: "x", source: "rules-injector", content: "from rules" });
  c.register("s", { id: "x", source: "custom", content: "from custom" });
  assert.equal(
    c.getPending("s").entries.map((e) => e.source),
    ["rules-injector", "custom"],
  );
});

test("registering the same source and id again overwrites the content", () => {
  const c = new ContextCollector();
  c.register("s", { id: "x", source: "custom", content: "first" });
  c.register("s", { id: "x", source: "custom", content: "second" });
  const pending = c.getPending("s");
  assert.is(pending.entries.length, 1);
  assert.is(pending.merged, "second");
});

test("orders by priority critical > high > normal > low, then by registration", () => {
  const c = new ContextCollector();
  c.register("s", { id: "low", source: "a", content: "L", priority: "low" });
  c.register("s", { id: "n1", source: "a", content: "N1" });
  c.register("s", { id: "crit", source: "a", content: "C", priority: "critical" });
  c.register("s", { id: "n2", source: "a", content: "N2", priority: "normal" });
  c.register("s", { id: "high", source: "a", content: "H", priority: "high" });
  assert.equal(
    c.getPending("s").entries.map((e) => e.id),
    ["crit", "high", "n1", "n2", "low"],
  );
});

test("merges contents with the markdown separator", () => {
  const c = new ContextCollector();
  c.register("s", { id: "a", source: "x", content: "one" });
  c.register("s", { id: "b", source: "x", content: "two" });
  assert.is(c.getPending("s").merged, `one${SEPARATOR}two`);
  assert.is(SEPARATOR, "\n\n---\n\n");
});

test("keeps the same content once, at its first place, and reports the other as a duplicate", () => {
  const c = new ContextCollector();
  c.register("s", { id: "AGENTS.md", source: "directory-agents", content: "Use pnpm.\n" });
  c.register("s", { id: "CLAUDE.md", source: "directory-agents", content: "Use pnpm." });
  const pending = c.getPending("s");
  assert.equal(
    pending.entries.map((e) => e.id),
    ["AGENTS.md"],
  );
  assert.is(pending.duplicates.length, 1);
  assert.is(pending.duplicates[0]!.entry.id, "CLAUDE.md");
  assert.is(pending.duplicates[0]!.keptAs, "directory-agents:AGENTS.md");
});

test("consume returns the pending context and clears only its own session", () => {
  const c = new ContextCollector();
  c.register("a", { id: "1", source: "x", content: "for a" });
  c.register("b", { id: "1", source: "x", content: "for b" });
  assert.is(c.consume("a").merged, "for a");
  assert.not.ok(c.hasPending("a"));
  assert.is(c.consume("a").hasContent, false);
  assert.ok(c.hasPending("b"));
});

test("clear empties one session and leaves the others", () => {
  const c = new ContextCollector();
  c.register("a", { id: "1", source: "x", content: "a" });
  c.register("b", { id: "1", source: "x", content: "b" });
  c.clear("a");
  assert.not.ok(c.hasPending("a"));
  assert.ok(c.hasPending("b"));
});

test("getPending does not consume", () => {
  const c = new ContextCollector();
  c.register("s", { id: "1", source: "x", content: "kept" });
  c.getPending("s");
  assert.ok(c.hasPending("s"));
});

test.run();
