import { test } from "uvu";
import * as assert from "uvu/assert";
import { redactSecrets } from "../../src/core/redact.js";
import { dedupBudget, dedupPhase } from "../../src/core/phases/dedup.js";
import { makeCandidate } from "../../src/core/sources/source.js";
import { approxTokens } from "../../src/core/tokens.js";
import { select } from "../helpers/tree.js";
import { DEADLINE_MS, deadlineRuns } from "../helpers/timed-cli.js";

/**
 * Issue 42 items 7, 13 and 17: where a repository or a prompt controls the input, the work takes time linear in it.
 * A text built to make a scan go back over it again and again (a credential's shape repeated, a word of 40,000
 * characters) is answered within the hook's deadline. Each run is killed after KILL_MS so that the code these tests
 * were written against fails them in seconds, not minutes.
 */
const KiB = 1024;
const { tree, timed, withinDeadline } = deadlineRuns(test, "linear");

const repeated = (unit: string, chars: number) => unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);

/** Texts each credential pattern went back over, once per occurrence of its first word, to the end of the run. */
const HOSTILE: Array<[what: string, text: string]> = [
  ["a JWT's first segment repeated", repeated("eyJaaaaaaaa-", 128 * KiB)],
  ["`1password` repeated (the ARN lookbehind read back to the word's start)", repeated("1password", 128 * KiB)],
  ["`arn:secret:` repeated", repeated("arn:secret:", 128 * KiB)],
  ["private-key BEGIN lines with no END", repeated("-----BEGIN RSA PRIVATE KEY-----\n", 128 * KiB)],
  ["authorization headers, one a line (each line number counted from the start)", repeated(`Authorization: Bearer Q7hZk2Lm9Xp4Rt8Vw3Nc\n`, 128 * KiB)],
];

test("each credential pattern takes time linear in a hostile text: 128 KiB built to backtrack is redacted in a fraction of the deadline", () => {
  for (const [what, text] of HOSTILE) {
    const started = performance.now();
    redactSecrets(text);
    const ms = performance.now() - started;
    assert.ok(ms < DEADLINE_MS / 3, `${what}: ${Math.round(ms)} ms for ${text.length} characters`);
  }
});

test("an AGENTS.md of 300 KB of JWT-shaped runs is built within the hook's deadline, and a real JWT in it is still redacted", () => {
  const jwt = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${"Q7hZk2Lm9Xp4Rt8Vw3Nc6Yb1Jd5Fg0Ks".slice(0, 30)}`;
  const root = tree({ "AGENTS.md": `# Rules\n\n${repeated("eyJaaaaaaaa-", 300 * KiB)}\n\ntoken ${jwt}\n` });
  const run = timed(["build", "--files", "src/a.ts"], root);
  withinDeadline(run, "build");
  assert.ok(!run.stdout.includes(jwt) && !run.stderr.includes(jwt), "the JWT leaked");
  assert.match(run.stderr, "AGENTS.md:5: redacted a jwt");
});

test("a prompt of one 40,000-character word is answered within the hook's deadline, and a path in it still counts", () => {
  const root = tree({
    "AGENTS.md": "# Rules\n\nUse tabs.\n",
    ".cursor/rules/net.mdc": "---\nglobs: src/net/**\n---\nRetry with backoff.\n",
    "src/net/client.ts": "export {};\n",
  });
  for (const unit of ["a", "a-", "@a", "./"]) {
    const run = timed(["build", "--prompt", `${repeated(unit, 40_000)} fix src/net/client.ts`], root);
    withinDeadline(run, `a prompt of ${JSON.stringify(unit)} repeated`);
    assert.match(run.stdout, "Retry with backoff.");
  }
});

/** Always-apply rules whose significant lines are all the same (each its own first and last line): every pair compares. */
function sharingRules(n: number): Record<string, string> {
  const common = Array.from({ length: 6 }, (_, i) => `Common guideline number ${i} says to keep the code tidy and small.`).join("\n");
  const tree: Record<string, string> = {};
  for (let i = 0; i < n; i++) tree[`.cursor/rules/r${i}.mdc`] = `---\nalwaysApply: true\n---\nRule ${i} begins here.\n${common}\nRule ${i} ends here.\n`;
  return tree;
}

test("6,000 always-apply rules that share their lines are selected and deduplicated within the hook's deadline, each sent", () => {
  const started = performance.now();
  const selection = select(sharingRules(6000), { targets: ["src/a.ts"] });
  const ms = performance.now() - started;
  assert.ok(ms < DEADLINE_MS, `select took ${Math.round(ms)} ms`);
  // No rule is lost: each is sent, or left out as a copy of one that is.
  assert.is(selection.candidates.filter((c) => c.status === "included" || c.status === "duplicate").length, 6000);
});

test("dedup's comparisons are capped in proportion to what it is given: 20,000 rules sharing every line cost no more than 2,000 do, per text", () => {
  const rules = (n: number) =>
    Object.entries(sharingRules(n)).map(([path, content]) =>
      makeCandidate({
        source: "rules-injector",
        id: path,
        priority: "normal",
        kind: "always",
        path,
        content: content.slice(content.indexOf("Rule")),
        countTokens: approxTokens,
      }),
    );
  const spentPerText = (n: number) => {
    const candidates = rules(n);
    const budget = dedupBudget(candidates);
    const entries = dedupPhase(candidates, [], new Map(), [], budget);
    assert.ok(entries.length > 0);
    return budget.spent / n;
  };
  const small = spentPerText(2000);
  const large = spentPerText(20_000);
  assert.ok(small > 0, "dedup spent nothing of its budget");
  assert.ok(large <= small * 1.5, `${Math.round(large)} units a text for 20,000 rules, ${Math.round(small)} for 2,000`);
});

test.run();
