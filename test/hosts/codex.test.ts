/**
 * The real Codex CLI (pinned below), run inside `unshare -n` against a fake OpenAI Responses API on 127.0.0.1 that
 * records every request, with ctxinject's hooks installed by `ctxinject init --codex`. Each case asserts on what
 * reached the model: which marker texts, and how many times.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { materialize, runCli } from "../helpers/cli.js";
import { count, lastAgentTurn, installHost, type Outcome, runScenario, workFolder, writeSkill, installInProject, hostSuite } from "./harness.js";
import { HOST_VERSIONS } from "./versions.js";
import { NESTED_PATCH } from "./probe.js";

/** Pinned in versions.ts, with every other host. */
export const CODEX_VERSION = HOST_VERSIONS.codex;

const PLATFORM: Record<string, string> = {
  "linux-x64": "codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
  "linux-arm64": "codex-linux-arm64/vendor/aarch64-unknown-linux-musl/bin/codex",
};

function codexBinary() {
  const binary = PLATFORM[`${process.platform}-${process.arch}`];
  if (!binary) return { skip: `no Codex binary for ${process.platform}-${process.arch} in this suite` };
  return installHost({ name: "@openai/codex", version: CODEX_VERSION, binary: `@openai/${binary}`, versionArgs: ["--version"] });
}

const found = codexBinary();
if ("skip" in found) console.log(`codex host suite skipped: ${found.skip}`);
else console.log(`codex host suite: Codex ${CODEX_VERSION}`);

type Step = ({ text: string } | { tool: { name: string; input: Record<string, unknown> | string } }) & { when?: string; unless?: string };

/**
 * Runs `codex exec` once per prompt (a later prompt resumes the first session), in one network namespace with one
 * fake API and one script. The hooks `init --codex` wrote are new to Codex, and `codex exec` has no way to trust
 * them, so the runs pass --dangerously-bypass-hook-trust, as the README tells automation to.
 */
function codex(root: string, script: Step[], prompts: string[], topLevel: string[] = []): Outcome {
  const work = workFolder("codex");
  const home = join(work, "home/.codex");
  mkdirSync(home, { recursive: true });
  const config = [
    ...topLevel,
    'model = "gpt-5.5"',
    'model_provider = "fake"',
    "[model_providers.fake]",
    'name = "fake"',
    'base_url = "{{API}}/v1"',
    'wire_api = "responses"',
    'env_key = "FAKE_API_KEY"',
    "[analytics]",
    "enabled = false",
    "[features]",
    "plugins = false",
    `[projects.${JSON.stringify(root)}]`,
    'trust_level = "trusted"',
  ].join("\n");
  const common = ["--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust"];
  const runs = prompts.map((prompt, i) => ({ args: i === 0 ? ["exec", ...common, "--json", prompt] : ["exec", "resume", ...common, "--last", prompt] }));
  const env = { CODEX_HOME: home, FAKE_API_KEY: "sk-fake-key-for-tests", CTXINJECT_STATE_DIR: join(work, "state"), RUST_LOG: "error" };
  return runScenario(
    work,
    { command: (found as { path: string }).path, cwd: root, env, files: { [join(home, "config.toml")]: `${config}\n` }, script, runs },
    "codex",
  );
}

/** A copy of the fixture with ctxinject's hooks installed the way the README says. */
function project(prepare?: (root: string) => void): string {
  const root = materialize("claude-host");
  prepare?.(root);
  installInProject(root);
  const init = runCli(["init", "--codex"], { cwd: root });
  assert.is(init.status, 0, init.stderr);
  return root;
}

const suite = hostSuite(found);

suite("installed by init --codex, a prompt naming a file brings that file's rules once", () => {
  const out = codex(project(), [{ text: "ok" }], ["fix the retry in src/net/client.ts"]);
  const body = lastAgentTurn(out);
  assert.is(count(body, "MARK-NET-RULE"), 1);
  assert.is(count(body, "MARK-ROOT-CURSORRULES"), 1, "the always-on rule of another agent");
});

suite("the root AGENTS.md, which Codex loads itself, arrives once", () => {
  assert.is(count(lastAgentTurn(codex(project(), [{ text: "ok" }], ["hello"])), "MARK-AGENTS-ROOT"), 1);
});

suite("a shell read of a nested file: its rules and the AGENTS.md below the working folder arrive once", () => {
  const out = codex(
    project(),
    [{ tool: { name: "exec_command", input: { cmd: "cat packages/api/src/handler.ts" } } }, { text: "ok" }],
    ["what does the handler do?"],
  );
  const body = lastAgentTurn(out);
  assert.is(count(body, "MARK-API-RULE"), 1);
  assert.is(count(body, "MARK-API-AGENTS"), 1);
});

suite("apply_patch on a nested file: its rules and AGENTS.md arrive with the patch, once", () => {
  const out = codex(project(), [{ tool: { name: "apply_patch", input: NESTED_PATCH } }, { text: "ok" }], ["make handle return a number"]);
  const body = lastAgentTurn(out);
  assert.match(body, "custom_tool_call_output", "Codex ran the patch");
  assert.is(count(body, "MARK-API-RULE"), 1);
  assert.is(count(body, "MARK-API-AGENTS"), 1);
});

suite("an AGENTS.md that @imports another file: the imported text arrives (Codex leaves the import as it is)", () => {
  const root = project((r) => {
    writeFileSync(join(r, "AGENTS.md"), "Run the whole test suite before you push. (MARK-AGENTS-ROOT)\n\n@docs/style.md\n");
    mkdirSync(join(r, "docs"));
    writeFileSync(join(r, "docs/style.md"), "Prefer early returns. (MARK-IMPORTED)\n");
  });
  assert.is(count(lastAgentTurn(codex(root, [{ text: "ok" }], ["hello"])), "MARK-IMPORTED"), 1);
});

suite("an AGENTS.md over Codex's 32 KiB budget: Codex cuts its end, so ctxinject gives the whole file", () => {
  const filler = "Keep the build green and the logs quiet.\n".repeat(900);
  const root = project((r) => writeFileSync(join(r, "AGENTS.md"), `${filler}The last line matters. (MARK-AGENTS-TAIL)\n`));
  assert.is(count(lastAgentTurn(codex(root, [{ text: "ok" }], ["hello"])), "MARK-AGENTS-TAIL"), 1);
});

suite("project_doc_fallback_filenames naming CLAUDE.md: Codex loads the root CLAUDE.md, and ctxinject does not add a second copy", () => {
  const root = project((r) => {
    rmSync(join(r, "AGENTS.md"));
    writeFileSync(join(r, "CLAUDE.md"), "Claude notes for the whole project. (MARK-CLAUDE-ROOT)\n");
  });
  const fallback = ['project_doc_fallback_filenames = ["CLAUDE.md"]'];
  // The control: with the host's own files included, the text arrives twice — so Codex itself loaded one.
  writeFileSync(join(root, ".ctxinjectrc.json"), JSON.stringify({ codex: { includeNative: true } }));
  assert.is(count(lastAgentTurn(codex(root, [{ text: "ok" }], ["hello"], fallback)), "MARK-CLAUDE-ROOT"), 2);
  writeFileSync(join(root, ".ctxinjectrc.json"), "{}");
  assert.is(count(lastAgentTurn(codex(root, [{ text: "ok" }], ["hello"], fallback)), "MARK-CLAUDE-ROOT"), 1);
  assert.is(
    count(lastAgentTurn(codex(root, [{ text: "ok" }], ["hello"])), "MARK-CLAUDE-ROOT"),
    1,
    "without the setting Codex does not read it: ctxinject's copy is the one",
  );
});

suite("a second prompt in the same session (exec resume) repeats nothing (the hook server answers after the first call)", () => {
  const out = codex(project(), [{ text: "one" }, { text: "two" }], ["fix the retry in src/net/client.ts", "and src/net/client.ts again"]);
  const body = lastAgentTurn(out);
  assert.match(body, "and src/net/client.ts again");
  assert.is(count(body, "MARK-NET-RULE"), 1);
  assert.is(count(body, "MARK-ROOT-CURSORRULES"), 1);
  // The first hook call answers itself and starts the hook server; the later calls are the server's.
  assert.ok(out.served.length >= 1, "the hook server answered the later calls");
  for (const line of out.served) assert.match(line, /: exit 0,/);
});

suite("a skill in .agents/skills arrives once (Codex lists it; the hook does not send it again); one in .claude/skills once, from the hook", () => {
  const root = project((r) => {
    writeSkill(r, ".agents/skills", "ledger-own", "MARK-SKILL-OWN");
    writeSkill(r, ".claude/skills", "ledger-other", "MARK-SKILL-OTHER");
  });
  const body = lastAgentTurn(codex(root, [{ text: "ok" }], ["reconcile the quarterly ledgers"]));
  assert.is(count(body, "MARK-SKILL-OWN-DESC"), 1, "Codex's own skill list names it; the hook adds nothing");
  assert.is(count(body, "MARK-SKILL-OWN-BODY"), 0);
  assert.is(count(body, "MARK-SKILL-OTHER-DESC"), 1, "a folder Codex does not read: the hook's entry");
});

test.run();
