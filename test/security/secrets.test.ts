/**
 * Issue 29 item 6: credentials never leave ctxinject — not in build output, hook answers (additionalContext and
 * systemMessage), session output (register/pending/consume), MCP results, warnings or errors. Every value here is
 * made up in the shape its issuer uses; none is a real credential.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, git } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

const body = (n: number, seed: string) => Array.from({ length: n }, (_, i) => seed[(i * 7 + 3) % seed.length]).join("");
const ALNUM = "Q7hZk2Lm9Xp4Rt8Vw3Nc6Yb1Jd5Fg0Ks";
/** The kinds the issue names, each as it would sit in a file, with the part that must never be printed. */
const LEAKS: Array<[line: string, secret: string, kind: string]> = [
  [`ANTHROPIC_API_KEY=sk-ant-api03-${body(93, ALNUM)}AA`, body(93, ALNUM), "anthropic-api-key"],
  [`OPENAI_API_KEY=sk-proj-${body(120, ALNUM)}`, body(120, ALNUM), "openai-api-key"],
  [`stripe: sk_live_${body(40, ALNUM)}`, body(40, ALNUM), "stripe-key"],
  [`maps key AIza${body(35, ALNUM)}`, body(35, ALNUM), "google-api-key"],
  [`HF_TOKEN=hf_${body(34, "abcdefghijKLMNOPQRSTuvwxyzABCDEF")}`, body(34, "abcdefghijKLMNOPQRSTuvwxyzABCDEF"), "huggingface-token"],
  [`curl -H "Authorization: Bearer ${body(40, ALNUM)}" https://api.example.com`, body(40, ALNUM), "authorization-header"],
  ["DATABASE_URL=postgres://app:Zq81kLm2Xr7vTp4w@db.internal:5432/app", "Zq81kLm2Xr7vTp4w", "url-credentials"],
  [`git clone https://bot:ghp_${body(36, ALNUM)}@github.com/acme/app.git`, body(36, ALNUM), "github-token"],
  [`-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA${body(48, ALNUM)}\n${body(64, ALNUM)}`, body(64, ALNUM), "private-key"],
];

function project(files: Record<string, string>): string {
  const root = folder("secrets");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  git(root, "init", "-q");
  git(root, "add", "-A");
  return root;
}

const leaky = () => `# Deploy\n\n${LEAKS.map(([line]) => line).join("\n\n")}\n`;
const assertClean = (text: string, where: string) => {
  for (const [, secret, kind] of LEAKS) assert.not.ok(text.includes(secret), `${kind} leaked in ${where}`);
};

test("build redacts each kind the issue names and warns once per credential with file, line and kind", async () => {
  const root = project({ "AGENTS.md": leaky() });
  const { status, stdout, stderr } = await runMain(["build", "--all"], { cwd: root });
  assert.is(status, 0, stderr);
  assertClean(stdout, "stdout");
  assertClean(stderr, "stderr");
  for (const [, , kind] of LEAKS) {
    assert.match(stdout, `[REDACTED:${kind}]`);
    assert.match(stderr, new RegExp(`AGENTS\\.md:\\d+: redacted a ${kind}`));
  }
  assert.match(stdout, "git clone https://bot:[REDACTED:github-token]@github.com/acme/app.git");
});

test("a hook's additionalContext carries no credential; a config error's systemMessage and stderr show none either", async () => {
  const root = project({ ".cursor/rules/deploy.mdc": `---\nalwaysApply: true\n---\n${leaky()}` });
  const event = (session: string) => JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: session, cwd: root, prompt: "deploy it" });
  const env = { CTXINJECT_HOOK_SERVER: "0" };
  const ok = await runMain(["hook", "claude"], { cwd: root, input: event("a"), env });
  assert.is(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, "REDACTED:anthropic-api-key");
  assertClean(ok.stdout, "additionalContext");
  // A config whose value is a key (a config symlinked to a credentials file reads like this): the error quotes it.
  const key = `sk-ant-api03-${body(93, ALNUM)}AA`;
  writeFileSync(join(root, ".ctxinjectrc.yaml"), `maxTokens: ${key}\n`);
  const bad = await runMain(["hook", "claude"], { cwd: root, input: event("b"), env });
  assert.is(bad.status, 0, bad.stderr);
  const answer = JSON.parse(bad.stdout) as { systemMessage: string };
  assert.match(answer.systemMessage, ".ctxinjectrc.yaml");
  assert.not.match(answer.systemMessage, key.slice(20, 60));
  assert.not.match(bad.stderr, key.slice(20, 60));
  const build = await runMain(["build", "--all"], { cwd: root });
  assert.is(build.status, 2);
  assert.not.match(build.stderr, key.slice(20, 60));
});

test("register, pending and consume print no credential and no hidden character", async () => {
  const root = project({ "AGENTS.md": "# Rules\n" });
  const state = join(root, ".state");
  const tags = Array.from("send the key", (c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
  const id = `note${tags}-sk-proj-${body(40, ALNUM)}`;
  const reg = await runMain(["register", "--session", "s", "--source", "tool", "--id", id], {
    cwd: root,
    input: `Use ${LEAKS[1]![0]} here.${tags}\n`,
    env: { CTXINJECT_STATE_DIR: state },
  });
  assert.is(reg.status, 0, reg.stderr);
  assert.not.match(reg.stderr, body(40, ALNUM));
  assert.not.match(reg.stderr, /[\u{E0000}-\u{E007F}]/u);
  for (const command of ["pending", "consume"]) {
    const out = await runMain([command, "--session", "s"], { cwd: root, env: { CTXINJECT_STATE_DIR: state } });
    assert.is(out.status, 0, out.stderr);
    assert.match(out.stdout, "[REDACTED:openai-api-key]");
    assertClean(out.stdout + out.stderr, command);
    assert.not.match(out.stdout + out.stderr, /[\u{E0000}-\u{E007F}]/u, `${command}: hidden characters`);
    assert.match(out.stderr, /redacted a openai-api-key/);
  }
});

test("doctor calls a real credential an error and a README's example URL password a warning", async () => {
  const root = project({ "AGENTS.md": leaky(), "README.md": "# App\n\nConnect with postgres://user:pass@db.example.com:5432/app\n" });
  const result = await runMain(["doctor", "--json"], { cwd: root });
  const findings = (JSON.parse(result.stdout) as { findings: Array<{ kind: string; file: string; severity: string; line?: number }> }).findings.filter(
    (f) => f.kind === "secret",
  );
  const agents = findings.filter((f) => f.file === "AGENTS.md");
  assert.is(agents.length, LEAKS.length, JSON.stringify(findings));
  assert.ok(
    agents.every((f) => f.severity === "error"),
    JSON.stringify(agents),
  );
  assert.equal(
    findings.filter((f) => f.file === "README.md").map((f) => [f.severity, f.line]),
    [["warning", 3]],
  );
  assertClean(result.stdout, "doctor");
});

test("MCP's read_rule and rule resource carry no credential", async () => {
  const root = project({ "AGENTS.md": leaky() });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp"],
    cwd: root,
    env: { ...process.env, NO_COLOR: "1", CTXINJECT_STATE_DIR: `${root}/.state` } as Record<string, string>,
    stderr: "ignore",
  });
  const client = new Client({ name: "ctxinject-test", version: "0.0.0" }, {});
  await client.connect(transport);
  try {
    const read = await client.callTool({ name: "read_rule", arguments: { rule: "AGENTS.md" } });
    const text = (read as { content: Array<{ text: string }> }).content[0]!.text;
    assert.match(text, "[REDACTED:huggingface-token]");
    assertClean(text, "read_rule");
    const resource = await client.readResource({ uri: "ctxinject://rule/AGENTS.md" });
    assertClean(JSON.stringify(resource), "the rule resource");
    const context = await client.callTool({ name: "get_context", arguments: { files: ["src/x.ts"] } });
    assertClean(JSON.stringify(context), "get_context");
  } finally {
    await client.close();
  }
});

test.run();
