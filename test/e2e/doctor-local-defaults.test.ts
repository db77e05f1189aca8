import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

// Issue 44 item 13: a README's local-development default (`postgres:postgres@localhost`) is documentation; doctor
// must not fail CI on it, and build sends it as written.

const { folder } = tempFolders(test);

test("a README's local database URL with its default credentials is no doctor error and is sent as written", async () => {
  const root = folder("local-defaults");
  writeFileSync(join(root, "README.md"), "# Service\n\nRun `docker compose up`, then connect to postgres://postgres:postgres@localhost:5432/service.\n");
  writeFileSync(join(root, "AGENTS.md"), "# Agents\n\nThe test database is postgres://user:pass@localhost:5432/dbname.\n");
  execFileSync("git", ["init", "-q"], { cwd: root });
  execFileSync("git", ["add", "-A"], { cwd: root });
  const doctor = await runMain(["doctor", "--json"], { cwd: root });
  assert.is(doctor.status, 0, doctor.stdout);
  const findings = (JSON.parse(doctor.stdout) as { findings: Array<{ kind: string }> }).findings;
  assert.not.ok(
    findings.some((f) => f.kind === "secret"),
    JSON.stringify(findings),
  );
  const build = await runMain(["build", "--all"], { cwd: root });
  assert.is(build.status, 0, build.stderr);
  assert.match(build.stdout, "postgres://postgres:postgres@localhost:5432/service");
  assert.match(build.stdout, "postgres://user:pass@localhost:5432/dbname");
  assert.not.match(build.stderr, "redacted");
});

test.run();
