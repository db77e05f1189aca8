import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import type { Finding } from "../../src/core/doctor/finding.js";
import { tempFolders } from "../helpers/temp.js";
import { countOf as count } from "../helpers/doc.js";

const { folder } = tempFolders(test);

test.after(cleanup);

// Issue 44 item 8: a permissions rule kept in .cursor/rules and .claude/rules whose copies drifted by a paragraph
// (each holds one the other lacks, so neither is nine tenths of the other).
const TARGET = "src/billing/total.ts";
const CURSOR = ".cursor/rules/permissions.mdc";
const CLAUDE = ".claude/rules/permissions.md";

test("build sends a rule whose two agents' copies drifted apart once: the longer copy, the other named as its near copy", async () => {
  const root = materialize("drifted-copies");
  const { status, stdout, stderr } = await runMain(["build", "--files", TARGET], { cwd: root });
  assert.is(status, 0, stderr);
  assert.is(count(stdout, "(perm-common)"), 1, stdout);
  assert.match(stdout, "(perm-cursor-only)");
  assert.not.match(stdout, "(perm-claude-only)");
  const explained = JSON.parse((await runMain(["explain", "--json", "--files", TARGET], { cwd: root })).stdout) as {
    candidates: Array<{ id: string; status: string; reason: string }>;
  };
  const copy = explained.candidates.find((c) => c.id === CLAUDE)!;
  assert.is(copy.status, "duplicate");
  assert.match(copy.reason, /^a near copy of \.cursor\/rules\/permissions\.mdc that drifted: \d+ of its \d+ lines the same$/);
});

test("the Claude hook sends neither copy: Claude Code loads the .claude one itself, and the .cursor one is its near copy", async () => {
  const root = materialize("drifted-copies");
  const state = folder("drift-state");
  const input = JSON.stringify({ session_id: "drift-1", cwd: root, hook_event_name: "UserPromptSubmit", prompt: `round the totals in ${TARGET}` });
  const { status, stdout, stderr } = await runMain(["hook", "claude"], { cwd: "/", env: { CTXINJECT_STATE_DIR: state }, input });
  assert.is(status, 0, stderr);
  assert.not.match(stdout, "(perm-");
});

// The corpus's megarepo shape: a rule kept in .roo/rules and .continue/rules, the same opening in both and a half of
// its own in each (too little in common to call them one rule). A prompt on a job gives the .roo copy cut at its
// opening (the jobs rule takes the room); a later prompt has room for the .continue copy, whose opening is that text.
test("the Claude hook gives a rule's opening once: the other agent's copy holding what was given cut is not sent later", async () => {
  const root = materialize("copies-given-cut");
  const state = folder("drift-state");
  const hook = async (prompt: string) => {
    const input = JSON.stringify({ session_id: "cut-1", cwd: root, hook_event_name: "UserPromptSubmit", prompt });
    const { status, stdout, stderr } = await runMain(["hook", "claude"], { cwd: "/", env: { CTXINJECT_STATE_DIR: state }, input });
    assert.is(status, 0, stderr);
    return stdout === "" ? "" : (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
  };
  const first = await hook("fix the retry in src/jobs/nightly.ts");
  assert.match(first, "(jobs-rule)");
  assert.is(count(first, "(release-common)"), 1, first);
  assert.match(first, "read .roo/rules/release.md for the rest");
  assert.not.match(first, "(release-continue-only)");
  const second = await hook("update docs/guide.md for the next release");
  assert.not.match(second, "(release-common)", "the opening given with the .roo copy comes again in the .continue copy");
  const explained = JSON.parse(
    (
      await runMain(["explain", "--json", "--session", "cut-1", "--as", "claude-code", "--prompt", "update docs/guide.md for the next release"], {
        cwd: root,
        env: { CTXINJECT_STATE_DIR: state },
      })
    ).stdout,
  ) as { candidates: Array<{ id: string; status: string; reason: string }> };
  const copy = explained.candidates.find((c) => c.id === ".continue/rules/release.md")!;
  assert.is(copy.status, "duplicate");
  assert.match(copy.reason, /^another agent's copy of \.roo\/rules\/release\.md, holding \d+ of the \d+ lines given of it \(already injected\)$/);
});

test("doctor reports the drift: a warning on the copy left out, naming the other and the agents that follow each", async () => {
  const root = materialize("drifted-copies");
  const { stdout } = await runMain(["doctor", "--json"], { cwd: root });
  const drift = (JSON.parse(stdout) as { findings: Finding[] }).findings.filter((f) => f.kind === "drifted-copy");
  assert.is(drift.length, 1, stdout);
  assert.is(drift[0]!.file, CLAUDE);
  assert.is(drift[0]!.severity, "warning");
  assert.match(drift[0]!.message, `a copy of ${CURSOR} that drifted apart`);
  assert.match(drift[0]!.message, "claude-code and cursor follow different text");
});

test.run();
