import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens as o200k } from "gpt-tokenizer/encoding/o200k_base";
import { approxTokens } from "../../src/core/tokens.js";
import { BIN, cleanup, materialize, runCli } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

test.after(cleanup);
const SEP = "\n\n---\n\n";

test("filter mode prints the block, the separator, then the prompt byte for byte", () => {
  const root = materialize("prompt-routing");
  const prompt = "fix the retry in src/api/retry.ts — ünïcödé 😀\n\n  trailing spaces  \n";
  // Spawned: the bytes go through the process's own standard input and output.
  const { status, stdout } = runCli(["build"], { cwd: root, input: prompt });
  assert.is(status, 0);
  assert.ok(stdout.endsWith(SEP + prompt), "the prompt comes last, unchanged");
  assert.ok(stdout.startsWith("<!-- "));
  assert.match(stdout, ".cursor/rules/handlers.mdc", "a path named in the prompt became a target");
});

test("--prompt works like standard input, and --no-passthrough prints the block alone", async () => {
  const root = materialize("prompt-routing");
  const viaFlag = (await runMain(["build", "--prompt", "tidy up"], { cwd: root })).stdout;
  assert.ok(viaFlag.endsWith(`${SEP}tidy up`));
  const alone = (await runMain(["build", "--no-passthrough"], { cwd: root, input: "tidy up" })).stdout;
  assert.not.match(alone, "tidy up");
  assert.ok(alone.endsWith("\n"));
});

test("json output never carries the prompt", async () => {
  const root = materialize("prompt-routing");
  const { stdout } = await runMain(["build", "--format", "json"], { cwd: root, input: "ulw go" });
  const value = JSON.parse(stdout);
  assert.is(value.entries[0].id, "ultrawork");
});

test("a terminal-less run with /dev/null as standard input does not wait and prints no prompt", () => {
  const root = materialize("prompt-routing");
  const result = spawnSync(process.execPath, [BIN, "build"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    timeout: 20000,
  });
  assert.is(result.status, 0);
  assert.not.ok(result.stdout.trimEnd().endsWith("---"));
});

test("an empty pipe is no prompt", async () => {
  const root = materialize("prompt-routing");
  const { stdout } = await runMain(["build"], { cwd: root, input: "" });
  assert.not.ok(stdout.includes(`${SEP}\n`) || stdout.endsWith(SEP));
});

test("keyword modes, @rules and relevance all come from the prompt", async () => {
  const root = materialize("prompt-routing");
  const value = JSON.parse((await runMain(["explain", "--json"], { cwd: root, input: "ulw: add a database migration, follow @release" })).stdout);
  const status = Object.fromEntries(value.candidates.map((c: { id: string; status: string }) => [c.id, c.status]));
  assert.is(status.ultrawork, "included");
  assert.is(status[".cursor/rules/release.mdc"], "included");
  assert.is(status[".cursor/rules/migrations.mdc"], "included");
});

test("--max-tokens bounds the output in every format, counted by the chosen tokenizer", async () => {
  const root = materialize("prompt-routing");
  for (const [tokenizer, count] of [
    ["approx", approxTokens],
    ["o200k", o200k],
  ] as const) {
    for (const format of ["markdown", "xml", "compact"]) {
      for (const budget of [40, 90, 200]) {
        const { status, stdout } = await runMain(["build", "--all", "--format", format, "--max-tokens", String(budget), "--tokenizer", tokenizer], {
          cwd: root,
        });
        assert.is(status, 0);
        assert.ok(count(stdout) <= budget, `${format}/${tokenizer}/${budget}: ${count(stdout)} tokens`);
      }
    }
    const json = JSON.parse((await runMain(["build", "--all", "--format", "json", "--max-tokens", "90", "--tokenizer", tokenizer], { cwd: root })).stdout);
    assert.ok(count(json.merged) <= 90);
    assert.is(json.tokens, count(json.merged));
    assert.is(json.tokenizer, tokenizer);
    assert.is(json.maxTokens, 90);
    assert.ok(json.omitted.some((o: { reason: string }) => /over budget/.test(o.reason)));
  }
});

test("explain shows what the budget trimmed and what it left out", async () => {
  const root = materialize("prompt-routing");
  const value = JSON.parse((await runMain(["explain", "--json", "--all", "--max-tokens", "150"], { cwd: root })).stdout);
  const statuses = value.candidates.map((c: { status: string }) => c.status);
  assert.ok(statuses.includes("over-budget"));
  // The weakest evidence gives way first (budget/evidence.ts): never a lower priority kept while a higher one is out.
  const rank = ["critical", "high", "normal", "low"];
  const kept = value.candidates.filter((c: { status: string }) => c.status === "included" || c.status === "trimmed");
  const over = value.candidates.filter((c: { status: string }) => c.status === "over-budget");
  for (const k of kept)
    for (const o of over)
      assert.ok(rank.indexOf(k.priority) <= rank.indexOf(o.priority), `${k.id} (${k.priority}) kept while ${o.id} (${o.priority}) left out`);
});

test("the config's maxTokens and tokenizer apply when no flag is given", async () => {
  const root = materialize("prompt-routing");
  writeFileSync(join(root, ".ctxinjectrc.json"), JSON.stringify({ agents: { files: ["AGENTS.md", "CLAUDE.md"] }, maxTokens: 60, tokenizer: "cl100k" }));
  const value = JSON.parse((await runMain(["build", "--all", "--format", "json"], { cwd: root })).stdout);
  assert.is(value.maxTokens, 60);
  assert.is(value.tokenizer, "cl100k");
});

test("a multi-megabyte README is capped with a note and a warning", async () => {
  const root = materialize("prompt-routing");
  writeFileSync(join(root, "README.md"), "# Huge\n\n" + "This line says something useful. ".repeat(100_000));
  const { status, stdout, stderr } = await runMain(["build", "--format", "json"], { cwd: root });
  assert.is(status, 0);
  const readme = JSON.parse(stdout).entries.find((e: { id: string }) => e.id === "README.md");
  assert.ok(readme.content.length < 110_000);
  assert.ok(readme.truncated);
  assert.match(readme.content, /read README\.md for the rest\]$/);
  assert.match(stderr, "README.md: larger than 100000 characters; capped");
});

test("bad budget, tokenizer and threshold values exit 2 with one line", async () => {
  const root = materialize("prompt-routing");
  for (const args of [
    ["--max-tokens", "-5"],
    ["--max-tokens", "lots"],
    ["--tokenizer", "gpt2"],
    ["--min-relevance", "2"],
  ]) {
    const { status, stderr, stdout } = await runMain(["build", ...args], { cwd: root });
    assert.is(status, 2, args.join(" "));
    assert.match(stderr, /error: /);
    assert.is(stdout, "");
  }
});

test("an invalid keyword pattern in the config exits 2 naming the key", async () => {
  const root = materialize("prompt-routing");
  writeFileSync(join(root, ".ctxinjectrc.json"), JSON.stringify({ keywords: { review: { pattern: "([", content: "x" } } }));
  const { status, stderr } = await runMain(["build"], { cwd: root });
  assert.is(status, 2);
  assert.match(stderr, /"keywords\.review\.pattern" must be a valid regular expression/);
});

test.run();
