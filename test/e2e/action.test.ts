import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { FIXTURES, git, materialize, REPO, runCli, testEnvironment } from "../helpers/cli.js";
import { parseConfigText } from "../../src/core/config-text.js";
// @ts-expect-error: a plain .mjs script of the action, without types
import { COMMENT_LIMIT, MARKER, commentBody, commentTarget, parseChecks } from "../../scripts/action.mjs";
import { tempFolders } from "../helpers/temp.js";

// The GitHub Action (action.yml) runs scripts/action.mjs; here the script runs in fixture repositories as the runner
// would start it: GITHUB_WORKSPACE, GITHUB_STEP_SUMMARY and GITHUB_OUTPUT set, the inputs as INPUT_* variables. The
// pull-request comment goes to a fake GitHub API on 127.0.0.1 that records each request.

const { folder } = tempFolders(test);

interface ActionRun {
  status: number | null;
  stdout: string;
  summary: string;
  outputs: Record<string, string>;
}

/** scripts/action.mjs with `inputs` (INPUT_<NAME>) on `workspace`, started as a runner starts a step. */
function runAction(workspace: string, inputs: Record<string, string>, extra: Record<string, string> = {}): Promise<ActionRun> {
  const files = folder("action");
  const summaryFile = join(files, "summary.md");
  const outputFile = join(files, "output.txt");
  const env: Record<string, string | undefined> = { GITHUB_WORKSPACE: workspace, GITHUB_STEP_SUMMARY: summaryFile, GITHUB_OUTPUT: outputFile };
  // Nothing of a real runner's own run leaks in.
  for (const key of Object.keys(process.env)) if (/^(GITHUB_|INPUT_)/.test(key)) env[key] ??= undefined;
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase().replace(/-/g, "_")}`] = value;
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(REPO, "scripts/action.mjs")], { cwd: workspace, env: testEnvironment({ ...env, ...extra }) });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.resume();
    child.on("close", (status) => {
      const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : "");
      const outputs = Object.fromEntries(
        read(outputFile)
          .split("\n")
          .filter(Boolean)
          .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
      );
      done({ status, stdout, summary: read(summaryFile), outputs });
    });
  });
}

test("doctor: each finding is an annotation line on its file and line; errors fail the step, and the outputs say so", async () => {
  const root = materialize("doctor");
  const run = await runAction(root, { checks: "doctor" });
  assert.is(run.status, 1, run.stdout);
  assert.match(run.stdout, /^::warning file=\.cursor\/rules\/unquoted\.mdc,line=2,title=unquoted-glob \[cursor\]::an unquoted value/m);
  assert.match(run.stdout, /^::error file=docs\/kord\/rules\/deploy\.md,line=4,title=secret \[kord\]::a credential/m);
  assert.match(run.stdout, /^::notice file=\.cursor\/rules\/long\.mdc,title=long-rule \[cursor\]::/m);
  assert.equal(run.outputs, { doctor: "fail", build: "skipped", coverage: "skipped" });
  assert.match(run.summary, /- doctor: 3 errors, \d+ warnings, \d+ notices \(fails on error\): \*\*fail\*\*/);
  const lenient = await runAction(root, { checks: "doctor", "fail-on": "none" });
  assert.is(lenient.status, 0, lenient.stdout);
  assert.is(lenient.outputs.doctor, "pass");
});

test("a project root below the workspace: each annotation names its file from the workspace, where GitHub looks", async () => {
  const workspace = folder("action");
  cpSync(join(FIXTURES, "doctor"), join(workspace, "app"), { recursive: true });
  git(workspace, "init", "-q");
  git(workspace, "add", "-A");
  const run = await runAction(workspace, { checks: "doctor", root: "app" });
  assert.match(run.stdout, /^::warning file=app\/\.cursor\/rules\/unquoted\.mdc,line=2,/m);
  assert.not.match(run.stdout, /^::\w+ file=\.cursor\//m);
});

test("build: a stale generated file is an error annotation on it and fails the step; a current one passes", async () => {
  const root = materialize("first-run");
  const out = ".context/AGENTS.generated.md";
  const built = runCli(["build", "--all", "--out", out, "--root", root], { cwd: root });
  assert.is(built.status, 0, built.stderr);
  writeFileSync(join(root, ".cursor/rules/general.mdc"), "---\nalwaysApply: true\n---\nKeep functions shorter still.\n");
  const stale = await runAction(root, { checks: "build", out });
  assert.is(stale.status, 1, stale.stdout);
  assert.match(stale.stdout, /^::error file=\.context\/AGENTS\.generated\.md,title=ctxinject build --check::.*stale/m);
  assert.is(stale.outputs.build, "fail");
  runCli(["build", "--all", "--out", out, "--root", root], { cwd: root });
  const current = await runAction(root, { checks: "build", out });
  assert.is(current.status, 0, current.stdout);
  assert.is(current.outputs.build, "pass");
  // Asked for without a file to check: skipped, said so, not a failure.
  const none = await runAction(root, { checks: "build" });
  assert.is(none.status, 0);
  assert.is(none.outputs.build, "skipped");
  assert.match(none.summary, "build: skipped (no `out` file given)");
});

test("coverage: the markdown report against the base ref goes to the job summary; no comment unless asked", async () => {
  const root = materialize("first-run");
  git(root, "-c", "commit.gpgsign=false", "commit", "-qm", "base");
  writeFileSync(join(root, ".cursor/rules/styles.md"), "---\nalwaysApply: true\n---\nUse design tokens.\n");
  const run = await runAction(root, { checks: "coverage", base: "HEAD" });
  assert.is(run.status, 0, run.stdout);
  assert.is(run.outputs.coverage, "pass");
  assert.match(run.summary, "- coverage against `HEAD`: **pass**");
  assert.match(run.summary, "## ctxinject coverage");
  assert.match(run.summary, ".cursor/rules/styles.md");
  assert.match(run.stdout, "no pull-request comment (comment is not true)");
});

/** A fake GitHub REST API for issue comments: records every request, keeps the comments it is given. */
async function fakeGitHub(): Promise<{
  url: string;
  requests: Array<{ method: string; url: string; auth: string; body: { body?: string } | null }>;
  comments: Array<{ id: number; body: string }>;
  server: Server;
}> {
  const requests: Array<{ method: string; url: string; auth: string; body: { body?: string } | null }> = [];
  const comments: Array<{ id: number; body: string }> = [{ id: 1, body: "Looks good to me" }];
  const read = (req: IncomingMessage) =>
    new Promise<string>((done) => {
      let text = "";
      req.on("data", (c: Buffer) => (text += c.toString()));
      req.on("end", () => done(text));
    });
  const server = createServer(async (req, res) => {
    const text = await read(req);
    const body = text ? (JSON.parse(text) as { body?: string }) : null;
    requests.push({ method: req.method ?? "", url: req.url ?? "", auth: req.headers.authorization ?? "", body });
    res.setHeader("content-type", "application/json");
    if (req.method === "GET" && /^\/repos\/o\/r\/issues\/7\/comments\?/.test(req.url ?? "")) return res.end(JSON.stringify(comments));
    if (req.method === "POST" && req.url === "/repos/o/r/issues/7/comments") {
      const made = { id: 100 + comments.length, body: body?.body ?? "" };
      comments.push(made);
      res.statusCode = 201;
      return res.end(JSON.stringify(made));
    }
    const patch = /^\/repos\/o\/r\/issues\/comments\/(\d+)$/.exec(req.url ?? "");
    const found = patch ? comments.find((c) => c.id === Number(patch[1])) : undefined;
    if (req.method === "PATCH" && found) {
      found.body = body?.body ?? "";
      return res.end(JSON.stringify(found));
    }
    res.statusCode = 404;
    res.end("{}");
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, comments, server };
}

/** What GitHub sets for a workflow run on pull request 7 of o/r, its API at `url`. */
function pullRequestRun(url: string): Record<string, string> {
  const event = join(folder("action"), "event.json");
  writeFileSync(event, JSON.stringify({ pull_request: { number: 7 } }));
  return { GITHUB_API_URL: url, GITHUB_REPOSITORY: "o/r", GITHUB_EVENT_PATH: event };
}

test("the PR comment: made once, then the same comment updated on the next run, never a second one", async () => {
  const api = await fakeGitHub();
  try {
    const root = materialize("first-run");
    const github = pullRequestRun(api.url);
    const first = await runAction(root, { checks: "coverage", comment: "true", "github-token": "t0ken" }, github);
    assert.is(first.status, 0, first.stdout);
    assert.equal(
      api.requests.map((r) => r.method),
      ["GET", "POST"],
    );
    assert.ok(api.requests.every((r) => r.auth === "Bearer t0ken"));
    const mine = api.comments.filter((c) => c.body.startsWith(MARKER));
    assert.is(mine.length, 1);
    assert.match(mine[0]!.body, "## ctxinject coverage");
    assert.is(first.outputs["comment-id"], String(mine[0]!.id));

    writeFileSync(join(root, "AGENTS.md"), "# Widget\n\nUse pnpm.\n");
    const second = await runAction(root, { checks: "coverage", comment: "true", "github-token": "t0ken" }, github);
    assert.is(second.status, 0, second.stdout);
    assert.equal(
      api.requests.map((r) => r.method),
      ["GET", "POST", "GET", "PATCH"],
    );
    assert.is(api.requests[3]!.url, `/repos/o/r/issues/comments/${mine[0]!.id}`);
    assert.is(api.comments.filter((c) => c.body.startsWith(MARKER)).length, 1);
    assert.is(api.comments[0]!.body, "Looks good to me");
  } finally {
    api.server.close();
  }
});

test("no comment is sent without comment: true, a token and a pull request; the log says which was missing", async () => {
  const api = await fakeGitHub();
  try {
    const root = materialize("first-run");
    const github = pullRequestRun(api.url);
    const noToken = await runAction(root, { checks: "coverage", comment: "true", "github-token": "" }, github);
    assert.match(noToken.stdout, "no pull-request comment (no github-token)");
    const push = join(folder("action"), "push.json");
    writeFileSync(push, JSON.stringify({ ref: "refs/heads/main" }));
    const notPr = await runAction(root, { checks: "coverage", comment: "true", "github-token": "t" }, { ...github, GITHUB_EVENT_PATH: push });
    assert.match(notPr.stdout, "no pull-request comment (not a pull request");
    assert.equal(api.requests, []);
  } finally {
    api.server.close();
  }
  assert.equal(commentTarget({ INPUT_COMMENT: "false", INPUT_GITHUB_TOKEN: "t", INPUT_PR: "3", GITHUB_REPOSITORY: "o/r" }), {
    post: false,
    why: "comment is not true",
  });
  assert.is(commentTarget({ INPUT_COMMENT: "true", INPUT_GITHUB_TOKEN: "t", INPUT_PR: "3", GITHUB_REPOSITORY: "o/r" }).post, true);
});

test("a report over GitHub's 65,536-character comment limit is cut at a line boundary, with a note saying so", () => {
  const line = "| `packages/some/folder/` | 3 | 1+4 files, 104 tok | 2+0 files, 54 tok, 4 warn |\n";
  const report = `## ctxinject coverage\n\n${line.repeat(2000)}`;
  assert.ok(report.length > COMMENT_LIMIT);
  const body = commentBody(report) as string;
  assert.ok(body.length <= COMMENT_LIMIT, `${body.length}`);
  assert.ok(body.startsWith(`${MARKER}\n## ctxinject coverage`));
  assert.match(body, /\|\n\n_Cut to fit GitHub's comment limit: the job summary of this run has the whole report._\n$/);
  assert.is(commentBody("short\n"), `${MARKER}\nshort\n`);
});

test("action.yml hands every input to the script and runs the script that exists; checks outside the list are refused", () => {
  const action = parseConfigText(readFileSync(join(REPO, "action.yml"), "utf8"), "yaml", "action.yml") as {
    inputs: Record<string, { default?: string }>;
    runs: { using: string; steps: Array<{ id?: string; run: string; env?: Record<string, string> }> };
  };
  assert.is(action.runs.using, "composite");
  const step = action.runs.steps.find((s) => s.id === "check")!;
  assert.match(step.run, 'node "$GITHUB_ACTION_PATH/scripts/action.mjs"');
  for (const name of Object.keys(action.inputs)) {
    assert.is(step.env?.[`INPUT_${name.toUpperCase().replace(/-/g, "_")}`], `\${{ inputs.${name} }}`, name);
  }
  assert.equal([...(parseChecks(action.inputs.checks?.default) as Set<string>)], ["doctor", "build", "coverage"]);
  assert.throws(() => parseChecks("doctor,lint"), /unknown lint/);
});

test(".pre-commit-hooks.yaml: each hook's command passes on a clean tree and fails on the problem it is for", () => {
  const hooks = parseConfigText(readFileSync(join(REPO, ".pre-commit-hooks.yaml"), "utf8"), "yaml", ".pre-commit-hooks.yaml") as Array<{
    id: string;
    entry: string;
    args?: string[];
    language: string;
    pass_filenames: boolean;
  }>;
  const hook = (id: string) => {
    const found = hooks.find((h) => h.id === id)!;
    assert.is(found.language, "node");
    assert.is(found.pass_filenames, false);
    const [bin, ...args] = found.entry.split(" ");
    assert.is(bin, "ctxinject");
    return (root: string) => runCli([...args, ...(found.args ?? [])], { cwd: root });
  };
  const doctor = hook("ctxinject-doctor");
  assert.is(doctor(materialize("first-run")).status, 0);
  assert.is(doctor(materialize("doctor")).status, 1);
  const generated = hook("ctxinject-generated");
  const root = materialize("first-run");
  assert.is(generated(root).status, 1, "no generated file yet");
  mkdirSync(join(root, ".context"));
  runCli(["build", "--all", "--out", ".context/AGENTS.generated.md"], { cwd: root });
  assert.is(generated(root).status, 0);
});

test.run();
