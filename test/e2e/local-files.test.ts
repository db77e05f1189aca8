import { test } from "uvu";
import * as assert from "uvu/assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

test.after(cleanup);

const markers = (text: string) => [...text.matchAll(/\(([a-z]+-[a-z-]+)\)$/gm)].map((m) => m[1]);

test("agent files ignored on purpose are read: CLAUDE.local.md after CLAUDE.md, AGENTS.override.md, AGENTS.local.md", async () => {
  const root = materialize("local-agent-files");
  const { status, stdout, stderr } = await runMain(["build", "--files", "pkg/index.ts"], { cwd: root });
  assert.is(status, 0, stderr);
  assert.equal(markers(stdout), ["agents-shared", "agents-local", "claude-shared", "claude-dotclaude", "claude-local", "agents-pkg-override"]);
});

test("an agent file inside an ignored folder stays out", async () => {
  const root = materialize("local-agent-files");
  const { stdout } = await runMain(["build", "--files", "build/out.js"], { cwd: root });
  assert.not.match(stdout, "agents-build");
  assert.match(stdout, "claude-local");
});

test("agents.readIgnored: false leaves every ignored file out", async () => {
  const root = materialize("local-agent-files");
  writeFileSync(join(root, ".ctxinjectrc.json"), JSON.stringify({ agents: { readIgnored: false } }));
  const { stdout } = await runMain(["build", "--files", "pkg/index.ts"], { cwd: root });
  assert.equal(markers(stdout), ["agents-shared", "claude-shared", "agents-pkg-replaced"]);
});

test("--all writes what is committed: personal, ignored files never reach a generated file", async () => {
  const root = materialize("local-agent-files");
  const { stdout } = await runMain(["build", "--all"], { cwd: root });
  assert.equal(markers(stdout), ["agents-shared", "claude-shared", "agents-pkg-replaced"]);
});

test.run();
