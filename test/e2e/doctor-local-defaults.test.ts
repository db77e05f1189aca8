import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { runMain } from "../helpers/main.js";

// Issue 44 item 13: a README's local-development default (`postgres:postgres@localhost`) is documentation; doctor
// must not fail CI on it, and build sends it as written.

const made: string[] = [];
test.after(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

test("a README's local database URL with its default credentials is no doctor error and is sent as written", async () => {
  const root = mkdtempSync(join(tmpdir(), "ctxinject-local-defaults-"));
  made.push(root);
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
