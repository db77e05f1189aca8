import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { countOf as count } from "../helpers/doc.js";

test.after(cleanup);

// Issue 44 item 5: the same SKILL.md kept in two agents' folders is one skill.
interface Row {
  id: string;
  status: string;
  reason: string;
}

test("build --all sends a SKILL.md kept in .claude/skills and .github/skills once; a copy that drifted is its own entry", async () => {
  const root = materialize("skills-across-agents");
  const { status, stdout, stderr } = await runMain(["build", "--all"], { cwd: root });
  assert.is(status, 0, stderr);
  assert.is(count(stdout, 'Skill "release-notes"'), 1, stdout);
  assert.is(count(stdout, 'Skill "db-migration"'), 1, stdout);
  // flaky-tests differs between the folders: both are offered.
  assert.is(count(stdout, 'Skill "flaky-tests"'), 2, stdout);
});

test("the index names a skill kept in two folders once, and explain names the copy it stands for", async () => {
  const root = materialize("skills-across-agents");
  const { status, stdout, stderr } = await runMain(["build", "--files", "src/app.ts", "--prompt", "write the release notes for the new version"], {
    cwd: root,
  });
  assert.is(status, 0, stderr);
  assert.is(count(stdout, "db-migration/SKILL.md` ("), 1, stdout);
  assert.is(count(stdout, "release-notes/SKILL.md"), 2, "one entry, which names its file twice (provenance and text)");
  const explained = await runMain(["explain", "--json", "--files", "src/app.ts", "--prompt", "write the release notes for the new version"], { cwd: root });
  const rows = (JSON.parse(explained.stdout) as { candidates: Row[] }).candidates;
  const copy = rows.find((r) => r.id === ".github/skills/db-migration/SKILL.md")!;
  assert.is(copy.status, "duplicate");
  assert.match(copy.reason, "same SKILL.md text as .claude/skills/db-migration/SKILL.md");
});

test("the Claude Code hook sends neither copy of a skill Claude Code lists itself from .claude/skills", async () => {
  const root = materialize("skills-across-agents");
  const event = JSON.stringify({
    hook_event_name: "UserPromptSubmit",
    session_id: "s-copies",
    cwd: root,
    prompt: "write the release notes for the new version",
  });
  const { status, stdout, stderr } = await runMain(["hook", "claude"], { cwd: root, input: event, env: { CTXINJECT_HOOK_SERVER: "0" } });
  assert.is(status, 0, stderr);
  assert.not.match(stdout, "release-notes");
  assert.not.match(stdout, "db-migration");
});

test.run();
