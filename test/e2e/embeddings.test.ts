import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  assertHookPathStated,
  BIN,
  cleanup,
  cliStartUp,
  HOOK_SERVER_OFF,
  materialize,
  ownHookServer,
  spoolOf,
  testEnvironment,
  type CliResult,
} from "../helpers/cli.js";
import { closedAddress, DOCUMENT_PREFIX, startFakeEmbeddings, type FakeEmbeddings } from "../helpers/fake-embeddings.js";
import { runMain } from "../helpers/main.js";
import { until } from "../helpers/wait.js";
import { tempFolders } from "../helpers/temp.js";

// Opt-in semantic scoring against a fake embedding server of our own (test/helpers/fake-embeddings.ts: vectors from a
// small concept table, not a model). Runs in-process (runMain), so the server in this process answers.

const { folder } = tempFolders(test);
const PROMPT = "the typing indicators lag after the laptop wakes";
/** The hook servers a test started (each on a spool of its own), stopped after it. */
const servers: number[] = [];
let fake: FakeEmbeddings;

test.before.each(async () => {
  fake = await startFakeEmbeddings();
});
test.after.each(async () => {
  for (const pid of servers.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await fake.close();
});
test.after(cleanup);

/** A user config folder (XDG_CONFIG_HOME) holding `settings`, and a state folder of the test's own. */
function userEnv(settings: unknown): Record<string, string> {
  const home = folder("emb-config");
  const state = folder("emb-state");
  mkdirSync(join(home, "ctxinject"));
  writeFileSync(join(home, "ctxinject", "config.json"), JSON.stringify(settings));
  return { XDG_CONFIG_HOME: home, CTXINJECT_STATE_DIR: state, ...HOOK_SERVER_OFF };
}

const ollama = (extra: Record<string, unknown> = {}) => ({
  relevance: { embeddings: { provider: "ollama", model: "concepts-1", baseUrl: fake.url, ...extra } },
});
const build = (root: string, env: Record<string, string>, prompt = PROMPT) => runMain(["build", "--prompt", prompt], { cwd: root, env });
const likelySection = (stdout: string) => stdout.split("## Likely relevant")[1]?.split("\n## ")[0] ?? "";

test("a prompt sharing no word with a rule's description reaches the likely tier through the user's embeddings, not the output", async () => {
  const root = materialize("embeddings-concepts");
  const without = await build(root, userEnv({}));
  assert.is(without.status, 0, without.stderr);
  assert.not.match(likelySection(without.stdout), "realtime.mdc", "the words alone find nothing");
  const r = await build(root, userEnv(ollama()));
  assert.is(r.status, 0, r.stderr);
  assert.match(likelySection(r.stdout), ".cursor/rules/realtime.mdc");
  assert.match(r.stdout, "similarity");
  assert.not.match(r.stdout, "REALTIME-RULE-BODY", "embeddings alone never inject a rule");
  assert.not.match(likelySection(r.stdout), "billing.mdc");
  assert.is(r.stderr, "");
  assert.equal(
    fake.requests.map((q) => q.path),
    ["/api/embed", "/api/embed"],
    "one request for the prompt, one for the rules",
  );
});

test("an OpenAI-compatible server named by the environment alone is used the same way", async () => {
  const root = materialize("embeddings-concepts");
  const env = { ...userEnv({}), CTXINJECT_EMBEDDINGS_PROVIDER: "openai", CTXINJECT_EMBEDDINGS_MODEL: "concepts-1", CTXINJECT_EMBEDDINGS_BASE_URL: fake.url };
  const r = await build(root, env);
  assert.is(r.status, 0, r.stderr);
  assert.match(likelySection(r.stdout), ".cursor/rules/realtime.mdc");
  assert.ok(fake.requests.every((q) => q.path === "/v1/embeddings"));
});

test("a rule the words already inject stays injected with embeddings, and the rest are ranked by both", async () => {
  const root = materialize("embeddings-concepts");
  const r = await build(root, userEnv(ollama()), "stripe refunds and invoices are charged twice");
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, "BILLING-RULE-BODY");
  assert.not.match(likelySection(r.stdout), "realtime.mdc");
});

test("rule vectors are cached in the state folder: the next prompt asks only for its own vector, a model change embeds the rules again", async () => {
  const root = materialize("embeddings-concepts");
  const env = userEnv(ollama());
  await build(root, env);
  const first = fake.requests.length;
  await build(root, env, "presence broadcast reconnects are flaky");
  assert.equal(
    fake.requests.slice(first).map((q) => q.input.length),
    [1],
    "only the prompt",
  );
  writeFileSync(join(env.XDG_CONFIG_HOME!, "ctxinject", "config.json"), JSON.stringify(ollama({ model: "concepts-2" })));
  const before = fake.requests.length;
  const r = await build(root, env);
  assert.match(likelySection(r.stdout), "realtime.mdc");
  const again = fake.requests.slice(before);
  assert.equal(
    again.map((q) => [q.model, q.input.length]),
    [
      ["concepts-2", 1],
      ["concepts-2", 3],
    ],
    "the new model's vectors for the three rules",
  );
});

test("vectors no prompt used for 30 days are removed from the cache (a changed model's, an edited rule's); those in use stay", async () => {
  const root = materialize("embeddings-concepts");
  const env = userEnv(ollama());
  const cache = join(env.CTXINJECT_STATE_DIR!, "embeddings");
  const vectors = () =>
    readdirSync(cache)
      .filter((name) => name.endsWith(".json"))
      .sort();
  // Everything in the cache as if last used (and last collected) 40 days ago.
  const age = (days: number) => {
    const then = (Date.now() - days * 24 * 60 * 60 * 1000) / 1000;
    for (const name of readdirSync(cache)) utimesSync(join(cache, name), then, then);
    if (existsSync(`${cache}.last-gc`)) utimesSync(`${cache}.last-gc`, then, then);
  };
  await build(root, env);
  const first = vectors();
  assert.is(first.length, 3, "one vector per rule");
  age(40);
  writeFileSync(join(env.XDG_CONFIG_HOME!, "ctxinject", "config.json"), JSON.stringify(ollama({ model: "concepts-2" })));
  await build(root, env);
  const second = vectors();
  assert.is(second.length, 3, "the first model's three vectors are gone, the new model's three are there");
  assert.ok(second.every((name) => !first.includes(name)));
  // In use, 40 days old: read by the next prompt, so kept when a new rule's vector is written and the cache collected.
  age(40);
  writeFileSync(join(root, ".cursor/rules/search.mdc"), "---\ndescription: Full-text search indexing\nalwaysApply: false\n---\nSEARCH-RULE-BODY\n");
  const before = fake.requests.length;
  await build(root, env);
  assert.equal(
    fake.requests.slice(before).map((q) => q.input.length),
    [1, 1],
    "the prompt, then only the new rule",
  );
  assert.is(vectors().length, 4);
  assert.ok(second.every((name) => vectors().includes(name)));
  assert.ok(Date.now() - statSync(join(cache, second[0]!)).mtimeMs < 60 * 60 * 1000, "a vector in use is marked used");
});

test("a server that is down leaves the word-based result, with a warning naming the address", async () => {
  const root = materialize("embeddings-concepts");
  const url = await closedAddress();
  const r = await build(root, userEnv(ollama({ baseUrl: url })));
  assert.is(r.status, 0, r.stderr);
  assert.not.match(likelySection(r.stdout), "realtime.mdc");
  assert.match(r.stderr, `relevance.embeddings: ${url}/api/embed cannot be reached (ECONNREFUSED); the word-based ranking stands`);
});

test("a server answering something other than embeddings leaves the word-based result, with a warning", async () => {
  const root = materialize("embeddings-concepts");
  fake.mode = "garbage";
  const r = await build(root, userEnv(ollama()));
  assert.is(r.status, 0, r.stderr);
  assert.not.match(likelySection(r.stdout), "realtime.mdc");
  assert.match(r.stderr, "answered something other than 1 embedding(s); the word-based ranking stands");
});

test("a server slower than timeoutMs: the hook answers with the word-based result and warns once per session", async () => {
  const root = materialize("embeddings-concepts");
  fake.mode = "slow";
  const env = userEnv(ollama({ timeoutMs: 50 }));
  const hook = (prompt: string) =>
    runMain(["hook", "claude"], { cwd: "/", env, input: JSON.stringify({ session_id: "emb-1", cwd: root, hook_event_name: "UserPromptSubmit", prompt }) });
  const first = await hook(PROMPT);
  assert.is(first.status, 0, first.stderr);
  const all = (r: { stdout: string; stderr: string }) => `${r.stdout}\n${r.stderr}`;
  assert.match(
    all(first),
    /did not answer within 50 ms \(3 rules not embedded yet: `ctxinject explain --prompt \\?"...\\?"` embeds them once without the deadline\); the word-based ranking stands/,
  );
  assert.not.match(likelySection(first.stdout), "realtime.mdc");
  const second = await hook("other people's cursors freeze after the laptop sleeps");
  assert.is(second.status, 0, second.stderr);
  assert.not.match(all(second), "did not answer within", "the same warning is not repeated in the session");
  // The second prompt's request may reach the server after its 50 ms deadline (a loaded machine): waited for, not counted at once.
  await until(() => fake.requests.length >= 3, "the server to be asked on each prompt");
});

test("explain shows each rule's similarity beside its word score", async () => {
  const root = materialize("embeddings-concepts");
  const r = await runMain(["explain", "--prompt", PROMPT], { cwd: root, env: userEnv(ollama()) });
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /realtime\.mdc[\s\S]*relevance 0\.00 < 0\.35; similarity 1\.00/);
});

// A model that embeds the prompt at once and the rules slowly (a CPU-bound model's first prompt): the rules' request
// outlives the prompt's deadline.
const slowRules = (timeoutMs: number, delayMs: number) => {
  fake.mode = "slow-documents";
  fake.documentDelayMs = delayMs;
  return ollama({ timeoutMs, documentPrefix: DOCUMENT_PREFIX });
};
const LATE_RULES =
  /did not embed 3 rules within \d+ ms \(`ctxinject explain --prompt \\?"...\\?"` embeds them once without the deadline\); those are ranked by words only/;
const cached = (state: string) =>
  existsSync(join(state, "embeddings")) ? readdirSync(join(state, "embeddings")).filter((f) => f.endsWith(".json")).length : 0;

/** The built CLI in a process of its own, without blocking this one (whose fake server must keep answering). */
function spawnCli(args: string[], options: { cwd: string; env: Record<string, string>; input?: string }): Promise<CliResult & { ms: number }> {
  assertHookPathStated(args, options.env);
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env: testEnvironment(options.env) });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  child.stdin.end(options.input ?? "");
  return new Promise((resolve) => child.on("close", (status) => resolve({ status, stdout, stderr, ms: Date.now() - started })));
}

/** Every text of a hook's JSON answer (its context and its messages), decoded. */
function answerText(stdout: string): string {
  const texts: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") texts.push(v);
    else if (v !== null && typeof v === "object") for (const x of Object.values(v)) walk(x);
  };
  walk(stdout.trim() === "" ? "" : JSON.parse(stdout));
  return texts.join("\n");
}

/** What a hook printed: its answer's texts and its standard error (where a hook answered outside a session warns). */
const hookText = (r: CliResult) => `${answerText(r.stdout)}\n${r.stderr}`;

// A hook gives context only when it injects something new: the billing rule, by its words; realtime is left to the
// embeddings (similarity 0.60 on the concept table).
const HOOK_PROMPT = "stripe refunds are charged twice, and the typing indicators lag after the laptop wakes";
const claudePrompt = (root: string, session: string, prompt: string) =>
  JSON.stringify({ session_id: session, cwd: root, hook_event_name: "UserPromptSubmit", prompt });

test("a model slower than timeoutMs on the rules: a hook in its own process answers within the deadline and says how to embed them once", async () => {
  const root = materialize("embeddings-concepts");
  const env = userEnv(slowRules(400, 5_000));
  const startUp = cliStartUp();
  const r = await spawnCli(["hook", "claude"], { cwd: root, env, input: claudePrompt(root, "emb-slow", HOOK_PROMPT) });
  assert.is(r.status, 0, r.stderr);
  assert.ok(r.ms < 400 + 2_500 + startUp, `answered in ${r.ms} ms, not waiting for the rules (5 s; the CLI's bare start took ${Math.round(startUp)} ms)`);
  const text = hookText(r);
  assert.match(text, LATE_RULES);
  assert.match(text, "BILLING-RULE-BODY");
  assert.not.match(likelySection(text), "realtime.mdc");
  assert.equal(
    fake.requests.map((q) => q.input.length),
    [1, 3],
    "the prompt, then the rules",
  );
});

test("explain waits for a slow model's rule vectors and caches them: the next build gets the likely tier through embeddings within the deadline", async () => {
  const root = materialize("embeddings-concepts");
  const env = userEnv(slowRules(200, 800));
  const started = Date.now();
  const explained = await runMain(["explain", "--prompt", PROMPT], { cwd: root, env });
  assert.is(explained.status, 0, explained.stderr);
  assert.ok(Date.now() - started >= 800, "explain waited for the rules");
  assert.is(explained.stderr, "");
  assert.match(explained.stdout, /realtime\.mdc[\s\S]*similarity 1\.00/);
  assert.is(cached(env.CTXINJECT_STATE_DIR!), 3);
  const asked = fake.requests.length;
  const built = Date.now();
  const r = await build(root, env);
  assert.is(r.status, 0, r.stderr);
  assert.ok(Date.now() - built < 200 + 1_500, "the build kept to the deadline");
  assert.is(r.stderr, "");
  assert.match(likelySection(r.stdout), ".cursor/rules/realtime.mdc");
  assert.equal(
    fake.requests.slice(asked).map((q) => q.input.length),
    [1],
    "only the prompt: the rules came from the cache",
  );
});

test("a prompt whose rules are only partly cached uses the cached vectors and ranks the rest by words", async () => {
  const root = materialize("embeddings-concepts");
  const env = userEnv(ollama({ documentPrefix: DOCUMENT_PREFIX, timeoutMs: 300 }));
  await build(root, env);
  const dir = join(env.CTXINJECT_STATE_DIR!, "embeddings");
  // Keep the realtime rule's vector only (the concept table's first dimension): the other two are embedded again.
  for (const f of readdirSync(dir)) if ((JSON.parse(readFileSync(join(dir, f), "utf8")) as number[])[0] === 0) rmSync(join(dir, f));
  assert.is(cached(env.CTXINJECT_STATE_DIR!), 1);
  fake.mode = "slow-documents";
  fake.documentDelayMs = 5_000;
  const asked = fake.requests.length;
  const r = await build(root, env);
  assert.is(r.status, 0, r.stderr);
  assert.match(likelySection(r.stdout), ".cursor/rules/realtime.mdc", "the cached vector is used");
  assert.match(r.stderr, /did not embed 2 rules within 300 ms/);
  assert.equal(
    fake.requests.slice(asked).map((q) => q.input.length),
    [1, 2],
    "the prompt, then the two rules not cached",
  );
});

test("with the warm hook server, the rules' vectors a slow model gives after the first prompt's answer are cached, and the next prompt uses them", async () => {
  const root = materialize("embeddings-concepts");
  const { XDG_CONFIG_HOME, CTXINJECT_STATE_DIR: state } = userEnv(slowRules(500, 2_000));
  const runtime = folder("emb-run");
  const env = { XDG_CONFIG_HOME: XDG_CONFIG_HOME!, ...ownHookServer(runtime, state!), CTXINJECT_DEBUG: "1", CTXINJECT_HOOK_SERVER_IDLE_MS: "30000" };
  const pidFile = () => join(spoolOf(runtime), "server.pid");
  // The first call starts the server and answers in its own process; nothing answers it, so it caches nothing.
  fake.mode = "slow";
  await spawnCli(["hook", "claude"], { cwd: root, env, input: claudePrompt(root, "emb-warm-0", "hello") });
  await until(() => existsSync(runtime) && readdirSync(runtime).length > 0 && existsSync(pidFile()), "the hook server");
  const pid = Number(readFileSync(pidFile(), "utf8"));
  servers.push(pid);
  fake.mode = "slow-documents";
  const startUp = cliStartUp();
  const first = await spawnCli(["hook", "claude"], { cwd: root, env, input: claudePrompt(root, "emb-warm-1", HOOK_PROMPT) });
  assert.is(first.status, 0, first.stderr);
  assert.match(first.stderr, "answered by the hook server");
  assert.ok(first.ms < 2_000 + startUp, `answered in ${first.ms} ms, before the rules' vectors (2 s; the CLI's bare start took ${Math.round(startUp)} ms)`);
  assert.match(answerText(first.stdout), "BILLING-RULE-BODY");
  assert.not.match(likelySection(answerText(first.stdout)), "realtime.mdc");
  await until(() => cached(state!) === 3, "the server to cache the rules' vectors");
  assert.match(hookText(first), LATE_RULES);
  const second = await spawnCli(["hook", "claude"], { cwd: root, env, input: claudePrompt(root, "emb-warm-2", HOOK_PROMPT) });
  assert.is(second.status, 0, second.stderr);
  assert.match(second.stderr, "answered by the hook server");
  assert.match(likelySection(answerText(second.stdout)), ".cursor/rules/realtime.mdc");
  assert.not.match(hookText(second), "did not");
});

test("in a long-lived process, a prompt arriving while the rules are still being embedded waits on that request instead of sending them again", async () => {
  const root = materialize("embeddings-concepts");
  const env = userEnv(slowRules(100, 1_500));
  const first = await build(root, env);
  assert.match(first.stderr, LATE_RULES);
  const second = await build(root, env, "presence broadcast reconnects are flaky");
  assert.is(second.status, 0, second.stderr);
  assert.equal(
    fake.requests.map((q) => q.input.length),
    [1, 3, 1],
    "the rules once, the prompt twice",
  );
  await until(() => cached(env.CTXINJECT_STATE_DIR!) === 3, "the rules' vectors");
});

test.run();
