/**
 * #44 item 9: coverage counted imported text twice (a CLAUDE.md that `@imports` rule files, the files again) and
 * disagreed with what the hook adds. Coverage says what select's dedup says: an imported file rides in its importer's
 * entry, expanded, for an agent that gets the importer that way; an agent that reads the file as written reads the
 * import lines only.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { CoverageModel } from "../../src/core/coverage/model.js";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

const temp = tempFolders(test);

test.after(cleanup);

const STANDARDS = ["coding", "testing", "go"];

/** The Go service's shape: a CLAUDE.md of `@imports` only, each imported file a `.github/instructions` rule for Go files. */
function goService(): string {
  const root = temp.folder("cov-imports");
  const write = (file: string, text: string) => {
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  write("CLAUDE.md", `# House\n\n${STANDARDS.map((n) => `@.github/instructions/${n}.instructions.md`).join("\n")}\n`);
  for (const name of STANDARDS) {
    const lines = Array.from({ length: 40 }, (_, i) => `Line ${i} of the ${name} standard (MARK-${name.toUpperCase()}-${i}).`);
    write(`.github/instructions/${name}.instructions.md`, `---\napplyTo: "**/*.go"\n---\n# ${name}\n\n${lines.join("\n")}\n`);
  }
  write("svc/main.go", "package main\n");
  execFileSync("git", ["init", "-q"], { cwd: root });
  execFileSync("git", ["add", "-A"], { cwd: root });
  return root;
}

const cellFiles = (model: CoverageModel, folder: string, agent: string) => {
  const cell = model.cells[model.folders.find((f) => f.path === folder)!.cells[agent]!]!;
  const items = (ids: number[]) => ids.map((i) => model.items[i]!);
  return { tokens: cell.tokens, loads: items(cell.loads), adds: items(cell.adds) };
};

test("coverage: files a CLAUDE.md imports count once, inside it, and what it says Codex's hook adds is what the hook adds", async () => {
  const root = goService();
  const out = await runMain(["coverage", "--format", "json", "--as", "claude,codex,copilot"], { cwd: root });
  assert.is(out.status, 0, out.stderr);
  const model = JSON.parse(out.stdout) as CoverageModel;
  const explain = JSON.parse((await runMain(["explain", "--json", "--files", "svc/main.go"], { cwd: root })).stdout) as {
    candidates: Array<{ path: string; tokens: number }>;
  };
  const tokensOf = (path: string) => explain.candidates.find((c) => c.path === path)!.tokens;
  const expanded = tokensOf("CLAUDE.md");

  // Claude Code loads CLAUDE.md with its imports: the imports' tokens once, inside it.
  const claude = cellFiles(model, "svc", "claude-code");
  assert.equal(
    claude.loads.map((i) => i.file),
    ["CLAUDE.md"],
  );
  assert.is(claude.tokens, expanded);

  // Codex's hook adds CLAUDE.md expanded, and the imported files not again (dedup: "imported by CLAUDE.md").
  const codex = cellFiles(model, "svc", "codex");
  assert.equal(
    codex.adds.map((i) => i.file),
    ["CLAUDE.md"],
  );
  assert.is(codex.tokens, expanded, "not the imported files a second time");
  const state = temp.folder("cov-state");
  const hook = await runMain(["hook", "codex"], {
    cwd: "/",
    env: { CTXINJECT_STATE_DIR: state, CTXINJECT_HOOK_SERVER: "0" },
    input: JSON.stringify({ session_id: "s-1", cwd: root, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "cat svc/main.go" } }),
  });
  assert.is(hook.status, 0, hook.stderr);
  const context = (JSON.parse(hook.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
  const sent = [...context.matchAll(/<!-- [a-z-]+: (\S+) \(/g)].map((m) => m[1]);
  assert.equal(
    sent,
    codex.adds.map((i) => i.file),
    "coverage's adds are the hook's entries",
  );
  for (const name of STANDARDS) assert.is(context.split(`(MARK-${name.toUpperCase()}-7)`).length - 1, 1, `${name} once`);

  // Copilot reads the rule files itself, and CLAUDE.md as written (it expands no imports): each text once.
  const copilot = cellFiles(model, "svc", "copilot");
  assert.equal(copilot.loads.map((i) => i.file).sort(), ["CLAUDE.md", ...STANDARDS.map((n) => `.github/instructions/${n}.instructions.md`)].sort());
  const asWritten = copilot.loads.find((i) => i.file === "CLAUDE.md")!.tokens;
  assert.ok(asWritten < 100, `CLAUDE.md as written is its import lines (${asWritten} tokens)`);
  assert.is(copilot.tokens, asWritten + STANDARDS.reduce((n, name) => n + tokensOf(`.github/instructions/${name}.instructions.md`), 0));
});

/** The entries a hook's answer carries, by their provenance comments (the index is none). */
const entriesOf = (stdout: string): string[] => {
  if (stdout === "") return [];
  const context = (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
  return [...context.matchAll(/<!-- [a-z-]+: (\S+) \(/g)].map((m) => m[1]!).filter((file) => file !== "index");
};

test("coverage: in every folder judged by a file of its own, what it says the hook adds is what the hook sends on a first read of that file", async () => {
  const hosts = [
    {
      agent: "claude-code",
      short: "claude",
      event: (root: string, file: string) => ({ hook_event_name: "PostToolUse", tool_name: "Read", tool_input: { file_path: join(root, file) } }),
    },
    {
      agent: "codex",
      short: "codex",
      event: (_root: string, file: string) => ({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: `sed -n 1,80p ${file}` } }),
    },
  ];
  for (const root of [goService(), ...["monorepo", "claude-host", "imports", "coverage-copies", "agent-files-chain"].map((f) => materialize(f))]) {
    const out = await runMain(["coverage", "--format", "json", "--as", hosts.map((h) => h.agent).join(",")], { cwd: root });
    assert.is(out.status, 0, out.stderr);
    const model = JSON.parse(out.stdout) as CoverageModel;
    for (const folder of model.folders) {
      // A folder of folders is judged with no glob matching (docs/coverage.md): a read of a file below it matches some.
      if (folder.representative.slice(0, Math.max(0, folder.representative.lastIndexOf("/"))) !== folder.path || folder.representative.startsWith("."))
        continue;
      for (const host of hosts) {
        const cell = model.cells[folder.cells[host.agent]!]!;
        const hook = await runMain(["hook", host.short], {
          cwd: "/",
          env: { CTXINJECT_STATE_DIR: temp.folder("cov-state"), CTXINJECT_HOOK_SERVER: "0" },
          input: JSON.stringify({ session_id: "s-1", cwd: root, ...host.event(root, folder.representative) }),
        });
        assert.is(hook.status, 0, hook.stderr);
        const where = `${root} ${folder.path || "."} ${host.agent}`;
        assert.equal(entriesOf(hook.stdout).sort(), cell.adds.map((i) => model.items[i]!.file).sort(), where);
      }
    }
  }
});

test.run();
