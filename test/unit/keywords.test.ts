import { test } from "uvu";
import * as assert from "uvu/assert";
import { detectKeywords, keywordModes } from "../../src/core/prompt/keywords.js";

const fired = (prompt: string, config = {}) =>
  detectKeywords(prompt, keywordModes(config))
    .filter((h) => h.match !== null)
    .map((h) => h.mode.name);

const SHOULD_FIRE: Array<[string, string]> = [
  ["ulw fix the flaky login test", "ultrawork"],
  ["ULTRAWORK: migrate every page to the new router", "ultrawork"],
  ["please do this ulw.", "ultrawork"],
  ["search the codebase for uses of fetchUser", "search"],
  ["Search through the whole repo for hard-coded API keys", "search"],
  ["find all usages of OrderService and list them", "search"],
  ["where is parseConfig defined?", "search"],
  ["search mode: list every environment variable we read", "search"],
  ["/search retry policy", "search"],
  ["analyze why the build got slower this week", "analyze"],
  ["Analyse the memory profile and tell me what leaks", "analyze"],
  ["I need a deep analysis of the deadlock in the worker", "analyze"],
  ["investigate why login fails on Safari", "analyze"],
  ["[analyze] the nightly job failures", "analyze"],
];

const MUST_NOT_FIRE = [
  "Add a search box to the header",
  "Fix the search results pagination, page 2 repeats page 1",
  "The analyzer crashes on empty input",
  "rename analyzeFile to analyseFile everywhere",
  "review the findings table layout",
  "StatefulWidget rebuilds too often",
  "run the ulw-plan script and paste its output",
  "ulwx is a typo in the config, fix it",
  "Update the search API endpoint to accept a limit",
  "searchParams is undefined on the server",
  "the analysis page shows NaN for empty months",
  "implement full-text search for products",
  "when the user searches for a product the page freezes",
  "Our ULWMode enum needs a new value",
  "check the `ultrawork` flag in the settings loader",
  "```\nulw\n```\nwhat does this snippet print?",
  "<system-reminder>ultrawork mode is on</system-reminder> fix the typo in the footer",
  "look at https://example.com/search?q=ulw for the spec",
  "open src/ulw/analyze.ts and fix the import",
  "the search index is stale after a deploy",
  "analytics events are missing the user id",
  "we should look at this later",
  "Find the bug in the date parser",
  "where is the cursor in the editor state kept",
  "add an analyze step to the CI workflow",
  "the find-all-usages command in the IDE hangs",
];

const OPTED_IN = { search: {}, analyze: {} };

test("each built-in mode fires when the prompt asks for it (search and analyze once the config turns them on)", () => {
  for (const [prompt, mode] of SHOULD_FIRE) assert.ok(fired(prompt, OPTED_IN).includes(mode), `${mode} should fire for: ${prompt}`);
});

test("by default only ultrawork/ulw fire: search and analyze are opt-in", () => {
  for (const [prompt, mode] of SHOULD_FIRE) assert.equal(fired(prompt), mode === "ultrawork" ? ["ultrawork"] : [], `by default: ${prompt}`);
  assert.equal(
    keywordModes({}).map((m) => m.name),
    ["ultrawork"],
  );
  assert.equal(
    keywordModes({ analyze: { enabled: true } }).map((m) => m.name),
    ["ultrawork", "analyze"],
  );
});

test("ordinary prompts that merely mention the words trigger nothing", () => {
  for (const prompt of MUST_NOT_FIRE) assert.equal(fired(prompt, OPTED_IN), [], `nothing should fire for: ${prompt}`);
});

test("a hit reports the words that triggered it", () => {
  const [hit] = detectKeywords("please ulw this", keywordModes({})).filter((h) => h.match);
  assert.is(hit!.match, "ulw");
});

test("ultrawork is critical; search and analyze are high", () => {
  const modes = Object.fromEntries(keywordModes(OPTED_IN).map((m) => [m.name, m.priority]));
  assert.equal(modes, { ultrawork: "critical", search: "high", analyze: "high" });
});

test("the config can disable a mode, change its text and priority, or add a mode", () => {
  const modes = keywordModes({
    search: { enabled: false },
    analyze: { content: "Think first.", priority: "critical" },
    review: { pattern: "\\breview (?:this|my) (?:pr|pull request)\\b", content: "Review like a maintainer." },
  });
  const byName = Object.fromEntries(modes.map((m) => [m.name, m]));
  assert.is(byName.search!.enabled, false);
  assert.is(byName.analyze!.content, "Think first.");
  assert.is(byName.analyze!.priority, "critical");
  assert.ok(fired("please review my PR", { review: { pattern: "\\breview (?:this|my) (?:pr|pull request)\\b", content: "x" } }).includes("review"));
});

test.run();
