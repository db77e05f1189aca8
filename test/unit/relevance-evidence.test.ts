// Issue 45: injection needs strong evidence (a trigger the author wrote, or two words of the rule's name or
// description), named in explain; the likely tier needs evidence in those fields; each special case can be turned off.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { stemmer } from "stemmer";
import { scoreRelevance, type Mechanism } from "../../src/core/prompt/relevance.js";
import { SaidWords, saidTrigger, triggersOf } from "../../src/core/prompt/triggers.js";
import { reasonOf, select, statusOf } from "../helpers/tree.js";

const texts = (description: string, whenToUse = "", aliases: string[] = []) => triggersOf(description, whenToUse, aliases, stemmer).map((t) => t.text);

test("an author's triggers: quoted phrases, the parts of a Use when clause, when_to_use's parts and every alias", () => {
  assert.equal(texts(`Commit staged work with a conventional message. Use when the user says "commit this" or 'let's commit'.`), [
    "commit this",
    "let's commit",
  ]);
  assert.equal(texts("Table-driven tests in Go. Use when writing table-driven tests, golden files or subtests."), [
    "table-driven tests",
    "golden files",
    "subtests",
  ]);
  assert.equal(texts("Go tests", "when adding a benchmark or a fuzz target", ["gotest", "go test"]), ["benchmark", "fuzz target", "gotest", "go test"]);
  // An apostrophe is no quote, and a part with no content word is no trigger.
  assert.equal(texts("The user's own settings; invoke it when asked to"), []);
  assert.equal(texts("Feature flags"), []);
});

test("a quoted phrase or an alias is said as written, words in a row; a clause's part by its content words anywhere", () => {
  const triggers = triggersOf(`Use when the user says 'let's commit' or mentions release notes`, "", [], stemmer);
  const said = (prompt: string) => {
    const words = prompt
      .toLowerCase()
      .split(/[^a-z']+/)
      .map((w) => stemmer(w.replace(/'s$/, "")));
    return saidTrigger(triggers, new SaidWords(words), new Set(words))?.text;
  };
  assert.is(said("ok let's commit now"), "let's commit");
  assert.is(said("commit the env file"), undefined);
  assert.is(said("write the notes for this release"), "release notes");
});

const skills = {
  ".claude/skills/git-commit/SKILL.md": `---\nname: git-commit\ndescription: Commit staged work with a conventional message. Use when the user says "commit this" or 'let's commit'.\n---\n# Steps\nRun the tests first.`,
  ".claude/skills/go-tests/SKILL.md":
    "---\nname: go-tests\ndescription: Go testing conventions. Use when writing table-driven tests.\n---\nUse t.Run per case.",
  ".cursor/rules/feature-flags.mdc":
    "---\ndescription: Adding and removing feature flags and gradual rollouts\n---\n# Cleanup\nRemove the flag and the dead branch once the rollout reaches everyone.",
  ".cursor/rules/terraform.mdc": "---\ndescription: Terraform\n---\n# Reviews\nEvery PR touching the platform modules gets a review from the platform team.",
};

test("a trigger its author wrote injects a skill, and explain names it", () => {
  const s = select(skills, { prompt: "let's commit", stem: stemmer });
  assert.is(statusOf(s, ".claude/skills/git-commit/SKILL.md"), "included");
  assert.match(reasonOf(s, ".claude/skills/git-commit/SKILL.md"), `the prompt says "let's commit", a trigger its author wrote`);
  const t = select(skills, { prompt: "write table-driven tests for the parser", stem: stemmer });
  assert.is(statusOf(t, ".claude/skills/go-tests/SKILL.md"), "included");
});

test("two words of a rule's name or description inject it, named in explain; one word alone does not", () => {
  const s = select(skills, { prompt: "add a feature flag for the new checkout", stem: stemmer });
  assert.is(statusOf(s, ".cursor/rules/feature-flags.mdc"), "included");
  assert.match(reasonOf(s, ".cursor/rules/feature-flags.mdc"), /the prompt says (feature, flag|flag, feature) of its name or description/);
  for (const prompt of ["trivy flags critical CVEs", "add a --dry-run flag to the script"]) {
    const t = select(skills, { prompt, stem: stemmer });
    assert.is(statusOf(t, ".cursor/rules/feature-flags.mdc"), "below-threshold", prompt);
  }
});

test("a rule that scores enough on words of its body alone is not injected, and explain says why", () => {
  const s = select(skills, { prompt: "flag this PR for review by the platform team", stem: stemmer, minRelevance: 0.05 });
  assert.is(statusOf(s, ".cursor/rules/terraform.mdc"), "below-threshold");
  assert.match(reasonOf(s, ".cursor/rules/terraform.mdc"), "but no word of its name, description or triggers is the prompt's own: not enough to inject");
});

test("what would inject a rule lists it as likely when a cut leaves it out, however low its score", () => {
  // A long description: two of its words score far under the likely tier's 0.2, and the two are still strong evidence.
  const tree = {
    ".claude/skills/llm-prompts/SKILL.md":
      "---\nname: llm-prompts\ndescription: Changing the prompts and model calls behind the assistant features (summaries, reply suggestions, ticket triage, search answers, tagging). Use when editing a prompt template, switching the model or its parameters, adding a new AI feature, writing evals, tuning token budgets or guarding against prompt injection.\n---\nPrompt templates live in ai/prompts.",
    ".cursor/rules/styling.mdc": "---\ndescription: CSS modules, design tokens and dark mode\n---\nUse tokens.",
  };
  const prompt = "the triage bot got tricked by a ticket";
  const s = select(tree, { prompt, stem: stemmer });
  const id = ".claude/skills/llm-prompts/SKILL.md";
  assert.ok((s.candidates.find((c) => c.id === id)!.score ?? 1) < 0.2, reasonOf(s, id));
  assert.equal(
    s.omitted.filter((o) => o.tier === "likely").map((o) => o.id),
    [id],
  );
  // One word of it is not: no likely tier at all.
  const t = select(tree, { prompt: "the bot got tricked by a ticket", stem: stemmer });
  assert.equal(
    t.omitted.filter((o) => o.tier === "likely").map((o) => o.id),
    [],
  );
});

test("a skill's body weighs less than a rule's: the agent reads it once it picks the skill by its description", () => {
  const body = "---\nname: x\ndescription: Something else\n---\n# Rollouts\nStep one.";
  const [skill, rule] = scoreRelevance(
    "rollouts",
    [
      { id: "skill", name: "x", description: "Something else", body: "# Rollouts\nStep one.", skill: true },
      { id: "rule", name: "y", description: "Something else", body: "# Rollouts\nStep one." },
    ],
    stemmer,
  );
  assert.ok(skill!.score < rule!.score, `${skill!.score} vs ${rule!.score} (${body.length})`);
});

const without = (...m: Mechanism[]) => ({ without: new Set<Mechanism>(m) });

test("each special case can be turned off for a measurement: related words, typos, phrases", () => {
  const rules = [
    { id: "rt", name: "realtime", description: "Realtime updates over WebSockets and reconnects", body: "" },
    { id: "db", name: "db-migrations", description: "Writing and applying database migrations safely", body: "" },
    { id: "auth", name: "auth", description: "Sign-in and sessions", body: "" },
  ];
  const score = (prompt: string, id: string, options = {}) => scoreRelevance(prompt, rules, stemmer, options).find((s) => s.id === id)!.score;
  assert.ok(score("live presence is broken", "rt") > 0);
  assert.is(score("live presence is broken", "rt", without("related")), 0);
  assert.ok(score("write a migraiton", "db") > 0);
  assert.is(score("write a migraiton", "db", without("typo")), 0);
  assert.ok(score("users get logged out", "auth", without("related")) > 0);
  assert.is(score("users get logged out", "auth", without("related", "phrases")), 0);
});

test.run();
