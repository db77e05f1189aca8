import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanup, HOOK_SERVER_OFF, materialize } from "../helpers/cli.js";
import { closedAddress, startFakeEmbeddings, type FakeEmbeddings } from "../helpers/fake-embeddings.js";
import { runMain } from "../helpers/main.js";

// Opt-in semantic scoring against a fake embedding server of our own (test/helpers/fake-embeddings.ts: vectors from a
// small concept table, not a model). Runs in-process (runMain), so the server in this process answers.

const PROMPT = "the typing indicators lag after the laptop wakes";
const made: string[] = [];
let fake: FakeEmbeddings;

test.before.each(async () => {
  fake = await startFakeEmbeddings();
});
test.after.each(async () => {
  await fake.close();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
test.after(cleanup);

/** A user config folder (XDG_CONFIG_HOME) holding `settings`, and a state folder of the test's own. */
function userEnv(settings: unknown): Record<string, string> {
  const home = mkdtempSync(join(tmpdir(), "ctxinject-emb-config-"));
  const state = mkdtempSync(join(tmpdir(), "ctxinject-emb-state-"));
  made.push(home, state);
  mkdirSync(join(home, "ctxinject"));
  writeFileSync(join(home, "ctxinject", "config.json"), JSON.stringify(settings));
  return { XDG_CONFIG_HOME: home, CTXINJECT_STATE_DIR: state, ...HOOK_SERVER_OFF };
}

const ollama = (extra: Record<string, unknown> = {}) => ({ relevance: { embeddings: { provider: "ollama", model: "concepts-1", baseUrl: fake.url, ...extra } } });
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
  assert.equal(fake.requests.map((q) => q.path), ["/api/embed", "/api/embed"], "one request for the prompt, one for the rules");
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
  assert.equal(fake.requests.slice(first).map((q) => q.input.length), [1], "only the prompt");
  writeFileSync(join(env.XDG_CONFIG_HOME!, "ctxinject", "config.json"), JSON.stringify(ollama({ model: "concepts-2" })));
  const before = fake.requests.length;
  const r = await build(root, env);
  assert.match(likelySection(r.stdout), "realtime.mdc");
  const again = fake.requests.slice(before);
  assert.equal(again.map((q) => [q.model, q.input.length]), [["concepts-2", 1], ["concepts-2", 3]], "the new model's vectors for the three rules");
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
  assert.match(all(first), /did not answer within 50 ms \(3 rules not embedded yet: `ctxinject explain --prompt \\?"...\\?"` embeds them once without the deadline\); the word-based ranking stands/);
  assert.not.match(likelySection(first.stdout), "realtime.mdc");
  const second = await hook("other people's cursors freeze after the laptop sleeps");
  assert.is(second.status, 0, second.stderr);
  assert.not.match(all(second), "did not answer within", "the same warning is not repeated in the session");
  assert.ok(fake.requests.length >= 3, "the server was asked on each prompt");
});

test("explain shows each rule's similarity beside its word score", async () => {
  const root = materialize("embeddings-concepts");
  const r = await runMain(["explain", "--prompt", PROMPT], { cwd: root, env: userEnv(ollama()) });
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /realtime\.mdc[\s\S]*relevance 0\.00 < 0\.35; similarity 1\.00/);
});

test.run();
