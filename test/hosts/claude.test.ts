/**
 * The real Claude Code CLI (pinned in claude-cli.ts), run inside `unshare -n` against a fake Anthropic API on
 * 127.0.0.1 that records every request, with ctxinject installed by `ctxinject init --claude`. Each case asserts
 * on what reached the model: which marker texts, and how many times.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, materialize, runCli } from "../helpers/cli.js";
import { CLAUDE_CODE_VERSION, claudeBinary, claudeEnv } from "./claude-cli.js";
import { count, type Outcome, type Recorded, runScenario, workFolder, writeSkill, installInProject, hostSuite } from "./harness.js";

const found = claudeBinary();
if ("skip" in found) {
  console.log(`claude host suite skipped: ${found.skip}`);
} else {
  console.log(`claude host suite: Claude Code ${CLAUDE_CODE_VERSION}`);
}

interface ClaudeOutcome extends Outcome {
  firstPrompt: string;
}

type Step = ({ text: string } | { tool: { name: string; input: Record<string, unknown> } }) & { when?: string; unless?: string };

/** Runs the real CLI once per prompt (`args`), in one network namespace with one fake API and one script. */
function claude(root: string, script: Step[], runs: string[][], extraEnv: Record<string, string> = {}): ClaudeOutcome {
  const work = workFolder("claude");
  const env = claudeEnv(work, extraEnv);
  const out = runScenario(work, { command: (found as { path: string }).path, cwd: root, env, script, runs: runs.map((args) => ({ args })) }, "claude");
  return { ...out, firstPrompt: runs[0]![1]! };
}

/** A copy of the fixture with ctxinject's hooks installed the way the README says. */
function project(prepare?: (root: string) => void): string {
  const root = materialize("claude-host");
  prepare?.(root);
  installInProject(root);
  const init = runCli(["init", "--claude"], { cwd: root });
  assert.is(init.status, 0, init.stderr);
  return root;
}

/** The main agent's requests carry the first prompt; a subagent's start from the prompt it was given. */
const isMain = (out: ClaudeOutcome, r: Recorded) =>
  (r.body?.tools?.length ?? 0) > 0 && JSON.stringify(r.body).includes(JSON.stringify(out.firstPrompt).slice(1, -1));
const lastMain = (out: ClaudeOutcome) => JSON.stringify(out.requests.filter((r) => isMain(out, r)).at(-1)?.body ?? {});
const p = (prompt: string, ...more: string[]) => ["-p", prompt, "--output-format", "text", ...more];

const suite = hostSuite(found);

suite("installed by init --claude, the hook runs in -p mode and a prompt naming a file brings that file's rules", () => {
  const root = project();
  const out = claude(root, [{ text: "ok" }], [p("fix the retry in src/net/client.ts")]);
  const body = lastMain(out);
  assert.is(count(body, "MARK-NET-RULE"), 1, "the file's rule arrives once");
  assert.match(body, "UserPromptSubmit hook additional context");
});

suite("AGENTS.md with no CLAUDE.md: Claude Code loads it itself, so it arrives once", () => {
  const out = claude(project(), [{ text: "ok" }], [p("hello")]);
  assert.is(count(lastMain(out), "MARK-AGENTS-ROOT"), 1);
});

suite("CLAUDE.md symlinked to AGENTS.md: the text arrives once", () => {
  const root = project((r) => symlinkSync("AGENTS.md", join(r, "CLAUDE.md")));
  assert.is(count(lastMain(claude(root, [{ text: "ok" }], [p("hello")])), "MARK-AGENTS-ROOT"), 1);
});

suite("a CLAUDE.md that is only @AGENTS.md: the text arrives once", () => {
  const root = project((r) => writeFileSync(join(r, "CLAUDE.md"), "@AGENTS.md\n"));
  assert.is(count(lastMain(claude(root, [{ text: "ok" }], [p("hello")])), "MARK-AGENTS-ROOT"), 1);
});

suite("CLAUDE.local.md and .claude/CLAUDE.md, which Claude Code reads, arrive once each", () => {
  const root = project((r) => {
    writeFileSync(join(r, "CLAUDE.local.md"), "Local notes. (MARK-CLAUDE-LOCAL)\n");
    writeFileSync(join(r, ".claude/CLAUDE.md"), "Dot-claude notes. (MARK-DOT-CLAUDE)\n");
  });
  const body = lastMain(claude(root, [{ text: "ok" }], [p("hello")]));
  assert.is(count(body, "MARK-CLAUDE-LOCAL"), 1);
  assert.is(count(body, "MARK-DOT-CLAUDE"), 1);
});

suite("a .claude/rules file with paths: Claude Code loads it on the read, ctxinject does not add a second copy", () => {
  const root = project();
  const out = claude(root, [{ tool: { name: "Read", input: { file_path: join(root, "web/page.tsx") } } }, { text: "ok" }], [p("look at web/page.tsx")]);
  assert.is(count(lastMain(out), "MARK-CLAUDE-PATHS"), 1);
});

suite("a Read of a nested file brings its package rules and AGENTS.md once", () => {
  const root = project();
  const out = claude(
    root,
    [{ tool: { name: "Read", input: { file_path: join(root, "packages/api/src/handler.ts") } } }, { text: "ok" }],
    [p("what does the handler do?")],
  );
  const body = lastMain(out);
  assert.is(count(body, "MARK-API-RULE"), 1);
  assert.is(count(body, "MARK-API-AGENTS"), 1);
});

suite("@path mentions are targets: the mentioned file's rules arrive", () => {
  const out = claude(project(), [{ text: "ok" }], [p("explain @src/net/client.ts")]);
  assert.is(count(lastMain(out), "MARK-NET-RULE"), 1);
});

suite("a second prompt in the same session repeats nothing; --resume repeats nothing (the hook server answers after the first call)", () => {
  const root = project();
  const id = "4d1f6f0e-1111-4222-8333-944455556666";
  const out = claude(
    root,
    [{ text: "one" }, { text: "two" }, { text: "three" }],
    [
      p("fix the retry in src/net/client.ts", "--session-id", id),
      p("and now src/net/client.ts again", "--resume", id),
      p("once more, src/net/client.ts and a database migration", "--resume", id),
    ],
  );
  const body = lastMain(out);
  assert.is(count(body, "MARK-NET-RULE"), 1, "the rule once across three prompts");
  assert.is(count(body, "MARK-AGENTS-ROOT"), 1);
  // The first hook call answers itself and starts the hook server; the later calls are the server's.
  assert.ok(out.served.length >= 1, "the hook server answered the later calls");
  for (const line of out.served) assert.match(line, /: exit 0,/);
});

suite("the index of omitted rules is shown once per session", () => {
  const root = project();
  const id = "5d1f6f0e-1111-4222-8333-944455556666";
  const out = claude(root, [{ text: "one" }, { text: "two" }], [p("tidy src/net/client.ts", "--session-id", id), p("and tidy web/page.tsx", "--resume", id)]);
  assert.is(count(lastMain(out), "<!-- ctxinject: index -->"), 1);
});

suite("a subagent's read does not use up the main agent's rules: each gets the package rules once", () => {
  const MAIN = "have a subagent look at the handler, then read it yourself";
  const root = project();
  const file = join(root, "packages/api/src/handler.ts");
  const out = claude(
    root,
    [
      {
        when: MAIN,
        tool: { name: "Agent", input: { description: "look", prompt: "Read packages/api/src/handler.ts and summarise it", subagent_type: "general-purpose" } },
      },
      { unless: MAIN, tool: { name: "Read", input: { file_path: file } } },
      { unless: MAIN, text: "It handles requests." },
      { when: MAIN, tool: { name: "Read", input: { file_path: file } } },
      { when: MAIN, text: "ok" },
    ],
    [p(MAIN)],
  );
  const sub = out.requests.filter((r) => (r.body?.tools?.length ?? 0) > 0 && !isMain(out, r));
  assert.ok(sub.length > 0, "the subagent made requests");
  assert.is(count(JSON.stringify(sub.at(-1)!.body), "MARK-API-RULE"), 1, "the subagent got the package rule");
  assert.is(count(JSON.stringify(sub[0]!.body), "MARK-ROOT-CURSORRULES"), 1, "SubagentStart gave the subagent the root context");
  assert.is(count(lastMain(out), "MARK-API-RULE"), 1, "and so did the main agent");
});

suite("PreToolUse: Claude Code accepts the file's rules from the hook that runs before a Write", () => {
  const root = project();
  const target = join(root, "src/net/retry.ts");
  const out = claude(
    root,
    [{ tool: { name: "Write", input: { file_path: target, content: "export {};\n" } } }, { text: "ok" }],
    [p("create a retry helper", "--permission-mode", "acceptEdits")],
  );
  const body = lastMain(out);
  assert.is(count(body, "MARK-NET-RULE"), 1);
  assert.match(body, "PreToolUse:Write hook additional context: <!-- rules-injector: .cursor/rules/net.mdc");
});

suite("/compact: a digest of what was in force arrives once, and the rules come back once after the compaction", () => {
  const root = project();
  const id = "6d1f6f0e-1111-4222-8333-944455556666";
  const out = claude(
    root,
    [{ text: "one" }, { text: "two" }],
    [p("fix the retry in src/net/client.ts", "--session-id", id), p("/compact", "--resume", id), p("check src/net/client.ts once more", "--resume", id)],
  );
  const last = JSON.stringify(out.requests.filter((r) => (r.body?.tools?.length ?? 0) > 0).at(-1)?.body ?? {});
  assert.match(last, "check src/net/client.ts once more");
  assert.is(count(last, "MARK-NET-RULE"), 1);
  assert.is(count(last, "Instructions in force before this conversation was compacted"), 1, "the SessionStart(compact) digest reaches the model once");
  assert.match(last, "- .cursor/rules/net.mdc");
});

suite("with ctxinject as an MCP server (--mcp-config), a get_context call is answered with the file's rules", () => {
  const root = materialize("claude-host");
  const config = join(root, "mcp.json");
  writeFileSync(config, JSON.stringify({ mcpServers: { ctxinject: { command: process.execPath, args: [BIN, "mcp"] } } }));
  const out = claude(
    root,
    [{ tool: { name: "mcp__ctxinject__get_context", input: { files: ["src/net/client.ts"], prompt: "fix the retry" } } }, { text: "ok" }],
    [p("fix the retry in the client", "--mcp-config", config, "--allowedTools", "mcp__ctxinject__get_context")],
  );
  const body = lastMain(out);
  assert.match(body, "mcp__ctxinject__get_context", "the tool is offered to the model");
  assert.match(body, /tool_result[^]*MARK-NET-RULE/, "the tool's answer carries the file's rule (no hook is installed here)");
});

suite("a skill in .claude/skills arrives once (Claude Code lists it; the hook does not send it again); one in .agents/skills once, from the hook", () => {
  const root = project((r) => {
    writeSkill(r, ".claude/skills", "ledger-own", "MARK-SKILL-OWN");
    writeSkill(r, ".agents/skills", "ledger-other", "MARK-SKILL-OTHER");
  });
  const out = claude(root, [{ text: "ok" }], [p("reconcile the quarterly ledgers")]);
  const body = lastMain(out);
  assert.is(count(body, "MARK-SKILL-OWN-DESC"), 1, "Claude Code's own skill list names it; the hook adds nothing");
  assert.is(count(body, "MARK-SKILL-OWN-BODY"), 0, "its body only when the model uses the skill");
  assert.is(count(body, "MARK-SKILL-OTHER-DESC"), 1, "a folder Claude Code does not read: the hook's entry");
});

test.run();
