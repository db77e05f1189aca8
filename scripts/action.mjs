// The GitHub Action's one step (action.yml at the top of this repository): the checks it is asked for, each run
// through the ctxinject CLI, with what GitHub reads back:
// - doctor: `doctor --format github` printed to the log, where GitHub turns each line into an annotation on its file
//   and line (paths made relative to the workspace when the project root is a folder below it);
// - build: `build --all --out FILE --check`, an error annotation on FILE when it is stale;
// - coverage: `coverage --format markdown [--base REF]` appended to the job summary and, when asked (comment: true,
//   a token and a pull request), written to one pull-request comment that later runs update (found by a marker).
// Every check's result goes to $GITHUB_OUTPUT; the step fails when a check fails. Plain Node (>= 20, global fetch),
// no dependency, so it runs before anything is installed. test/e2e/action.test.ts runs it with a fake API.
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ACTION_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const CHECKS = ["doctor", "build", "coverage"];
/** GitHub's limit on a comment's body, in characters. */
export const COMMENT_LIMIT = 65_536;
/** The first line of the comment this action owns: a later run finds it and updates it. */
export const MARKER = "<!-- ctxinject-action: coverage -->";

/** The checks named in `checks` (comma or space separated); an unknown name is a usage error. */
export function parseChecks(text) {
  const names = (text || CHECKS.join(",")).split(/[\s,]+/).filter(Boolean);
  const unknown = names.filter((n) => !CHECKS.includes(n));
  if (unknown.length > 0) throw new Error(`checks: unknown ${unknown.join(", ")} (known: ${CHECKS.join(", ")})`);
  return new Set(names);
}

/** The comment's body: the marker and the report, cut at a line to stay within GitHub's limit, with a note saying so. */
export function commentBody(markdown, limit = COMMENT_LIMIT) {
  const head = `${MARKER}\n`;
  const whole = head + markdown;
  if (whole.length <= limit) return whole;
  const note = "\n\n_Cut to fit GitHub's comment limit: the job summary of this run has the whole report._\n";
  const room = limit - head.length - note.length;
  const cut = markdown.lastIndexOf("\n", room);
  return head + markdown.slice(0, cut > 0 ? cut : room) + note;
}

/** An annotation property (a path) escaped as GitHub's workflow commands want it. */
const escapeProperty = (s) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A").replace(/:/g, "%3A").replace(/,/g, "%2C");

/** An annotation's message escaped as GitHub's workflow commands want it. */
const escapeData = (s) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");

/** doctor's annotation lines with `file=` made relative to the workspace (the project root is `prefix` below it). */
export function rebaseAnnotations(text, prefix) {
  if (prefix === "") return text;
  return text.replace(/^(::[a-z]+ file=)/gm, `$1${escapeProperty(prefix)}/`);
}

const lastLine = (text) => text.trim().split("\n").pop() ?? "";

/** How to run ctxinject: CTXINJECT_BIN, else the project's own install, else this action's copy (built by action.yml). */
export function ctxinjectCommand(env, root) {
  if (env.CTXINJECT_BIN) return [env.CTXINJECT_BIN];
  const own = join(root, "node_modules/.bin/ctxinject");
  if (existsSync(own)) return [own];
  return [process.execPath, join(ACTION_ROOT, "bin/ctxinject.js")];
}

/**
 * Whether to write the PR comment, and where: `{ post: true, ... }` or `{ post: false, why }`. Nothing is sent unless
 * the workflow asked for it, gave a token, and the run is for a pull request.
 */
export function commentTarget(env) {
  if (!/^(true|yes|1)$/i.test(env.INPUT_COMMENT ?? "")) return { post: false, why: "comment is not true" };
  if (!env.INPUT_GITHUB_TOKEN) return { post: false, why: "no github-token" };
  let number = env.INPUT_PR || "";
  if (!number && env.GITHUB_EVENT_PATH && existsSync(env.GITHUB_EVENT_PATH)) {
    const event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, "utf8"));
    number = String(event.pull_request?.number ?? event.issue?.number ?? "");
  }
  if (!/^\d+$/.test(number)) return { post: false, why: "not a pull request (no pull request number)" };
  if (!/^[^/\s]+\/[^/\s]+$/.test(env.GITHUB_REPOSITORY ?? "")) return { post: false, why: "GITHUB_REPOSITORY is not owner/name" };
  return {
    post: true,
    api: (env.GITHUB_API_URL || "https://api.github.com").replace(/\/$/, ""),
    repo: env.GITHUB_REPOSITORY,
    number,
    token: env.INPUT_GITHUB_TOKEN,
  };
}

/** Creates the comment, or updates the one an earlier run made (the first comment starting with MARKER). */
export async function upsertComment(target, body) {
  const headers = {
    authorization: `Bearer ${target.token}`,
    accept: "application/vnd.github+json",
    "content-type": "application/json",
    "user-agent": "ctxinject-action",
  };
  const call = async (method, path, payload) => {
    const response = await fetch(`${target.api}${path}`, { method, headers, body: payload === undefined ? undefined : JSON.stringify(payload) });
    if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status}`);
    return response.json();
  };
  let existing;
  for (let page = 1; page <= 20 && existing === undefined; page++) {
    const comments = await call("GET", `/repos/${target.repo}/issues/${target.number}/comments?per_page=100&page=${page}`);
    existing = comments.find((c) => typeof c.body === "string" && c.body.startsWith(MARKER));
    if (comments.length < 100) break;
  }
  if (existing) return { action: "updated", ...(await call("PATCH", `/repos/${target.repo}/issues/comments/${existing.id}`, { body })) };
  return { action: "created", ...(await call("POST", `/repos/${target.repo}/issues/${target.number}/comments`, { body })) };
}

/** The step: runs the checks, writes the outputs and the summary; the exit code (1 when a check failed). */
export async function main(env = process.env, out = (s) => process.stdout.write(s)) {
  const workspace = resolve(env.GITHUB_WORKSPACE || process.cwd());
  const root = resolve(workspace, env.INPUT_ROOT || ".");
  const prefix = relative(workspace, root).split(sep).join("/");
  const command = ctxinjectCommand(env, root);
  const checks = parseChecks(env.INPUT_CHECKS);
  const results = {};
  const summary = [];
  const ctxinject = (args) => {
    const [file, ...pre] = command;
    const run = spawnSync(file, [...pre, ...args, "--root", root], {
      cwd: root,
      encoding: "utf8",
      env: { ...env, NO_COLOR: "1" },
      maxBuffer: 256 * 1024 * 1024,
    });
    if (run.error) throw run.error;
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  };

  if (checks.has("doctor")) {
    const failOn = env.INPUT_FAIL_ON || "error";
    const run = ctxinject(["doctor", "--format", "github", "--fail-on", failOn]);
    out(rebaseAnnotations(run.stdout, prefix));
    const count = (level) => (run.stdout.match(new RegExp(`^::${level} `, "gm")) ?? []).length;
    results.doctor = run.status === 0 ? "pass" : "fail";
    if (run.status !== 0 && run.status !== 1) out(`::error title=ctxinject doctor::${escapeData(lastLine(run.stderr))}\n`);
    summary.push(`- doctor: ${count("error")} errors, ${count("warning")} warnings, ${count("notice")} notices (fails on ${failOn}): **${results.doctor}**`);
  }

  if (checks.has("build")) {
    const file = env.INPUT_OUT || "";
    if (file === "") {
      results.build = "skipped";
      summary.push("- build: skipped (no `out` file given)");
    } else {
      const run = ctxinject(["build", "--all", "--out", file, "--check"]);
      results.build = run.status === 0 ? "pass" : "fail";
      const said = lastLine(`${run.stdout}${run.stderr}`);
      if (run.status !== 0) out(`::error file=${escapeProperty(prefix ? `${prefix}/${file}` : file)},title=ctxinject build --check::${escapeData(said)}\n`);
      summary.push(`- build --check \`${file}\`: **${results.build}**${run.status === 0 ? "" : ` (${said})`}`);
    }
  }

  let report = "";
  if (checks.has("coverage")) {
    const base = env.INPUT_BASE || "";
    const run = ctxinject(["coverage", "--format", "markdown", ...(base ? ["--base", base] : [])]);
    results.coverage = run.status === 0 ? "pass" : "fail";
    if (run.status === 0) report = run.stdout;
    else out(`::error title=ctxinject coverage::${escapeData(lastLine(run.stderr))}\n`);
    summary.push(`- coverage${base ? ` against \`${base}\`` : ""}: **${results.coverage}**`);
  }

  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, `### ctxinject\n\n${summary.join("\n")}\n\n${report}`);
  if (report) {
    const target = commentTarget(env);
    if (target.post) {
      const done = await upsertComment(target, commentBody(report));
      results["comment-id"] = String(done.id ?? "");
      out(`ctxinject: coverage comment ${done.action}${done.html_url ? `: ${done.html_url}` : ""}\n`);
    } else {
      out(`ctxinject: no pull-request comment (${target.why})\n`);
    }
  }
  for (const name of CHECKS) results[name] ??= "skipped";
  if (env.GITHUB_OUTPUT)
    appendFileSync(
      env.GITHUB_OUTPUT,
      Object.entries(results)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(""),
    );
  return Object.values(results).includes("fail") ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      process.stdout.write(`::error title=ctxinject action::${String(error?.message ?? error).split("\n")[0]}\n`);
      process.exit(2);
    },
  );
}
