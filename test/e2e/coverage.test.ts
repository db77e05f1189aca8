import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanup, git, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { testUnless } from "../helpers/lane.js";
import { chromiumOnPath, runChromium } from "../helpers/chromium.js";
import { REPRESENTATIVE, type CoverageModel } from "../../src/core/coverage/model.js";

type Json = CoverageModel & {
  root: string;
  base?: {
    ref: string;
    folders: Array<{ folder: string; agent: string; gained: string[]; lost: string[]; tokens: number }>;
    rules: Array<{ file: string; agents: Record<string, { before: number; after: number }> }>;
  };
};
const ENV = { CTXINJECT_HOOK_SERVER: "0" };
const coverageJson = async (cwd: string, ...args: string[]): Promise<Json> => {
  const r = await runMain(["coverage", "--format", "json", ...args], { cwd, env: ENV });
  assert.is(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Json;
};

/** A cell with its entries looked up in the model's items. */
const cellOf = (model: CoverageModel, index: number) => {
  const cell = model.cells[index]!;
  const entries = (ids: number[]) => ids.map((i) => model.items[i]!);
  return { ...cell, loads: entries(cell.loads), adds: entries(cell.adds), offers: entries(cell.offers) };
};

test.after.each(cleanup);

test("coverage --format json: every agent's cell per folder, deterministic, its reasons explain's for the folder's file", async () => {
  const dir = materialize("monorepo");
  const first = await runMain(["coverage", "--format", "json"], { cwd: dir, env: ENV });
  assert.is(first.status, 0, first.stderr);
  assert.is((await runMain(["coverage", "--format", "json"], { cwd: dir, env: ENV })).stdout, first.stdout);
  const model = JSON.parse(first.stdout) as Json;
  assert.equal(
    model.agents.map((a) => a.name),
    [
      "claude-code",
      "cline",
      "codex",
      "copilot",
      "copilot-cli",
      "cursor",
      "cursor-agent",
      "droid",
      "gemini-cli",
      "kilo",
      "kiro",
      "opencode",
      "qwen-code",
      "windsurf",
    ],
  );
  const folder = model.folders.find((f) => f.path === "packages/api/src/handlers")!;
  assert.is(folder.representative, "packages/api/src/handlers/user.ts");
  const claude = cellOf(model, folder.cells["claude-code"]!);
  const cursor = cellOf(model, folder.cells.cursor!);
  // The handlers rule is Cursor's own; Claude Code gets it from ctxinject's hook; Copilot never sees it.
  assert.ok(cursor.loads.some((i) => i.file === "packages/api/.cursor/rules/handlers.mdc"));
  assert.ok(claude.adds.some((i) => i.file === "packages/api/.cursor/rules/handlers.mdc"));
  const copilot = cellOf(model, folder.cells.copilot!);
  assert.ok(copilot.findings.some((f) => f.kind === "not-seen" && f.files!.includes("packages/api/.cursor/rules/handlers.mdc")));
  assert.is(
    claude.tokens,
    [...claude.loads, ...claude.adds].reduce((n, i) => n + i.tokens, 0),
  );
  // What ctxinject adds carries the reason explain gives for that file.
  const explain = await runMain(["explain", "--json", "--files", folder.representative], { cwd: dir, env: ENV });
  const reasons = new Map((JSON.parse(explain.stdout).candidates as Array<{ path: string; reason: string; status: string }>).map((c) => [c.path, c.reason]));
  for (const item of claude.adds) assert.is(item.reason.split(REPRESENTATIVE).join(folder.representative), reasons.get(item.file), item.file);
});

test("coverage says of an entry ctxinject lists in its index (not injected) where it went in explain's words: listed in the index", async () => {
  for (const fixture of ["monorepo", "skills"]) {
    const dir = materialize(fixture);
    const model = await coverageJson(dir);
    let checked = 0;
    for (const folder of model.folders) {
      const listed = cellOf(model, folder.cells["claude-code"]!).offers.filter((i) => i.by === "ctxinject");
      if (listed.length === 0) continue;
      const explain = await runMain(["explain", "--json", "--files", folder.representative], { cwd: dir, env: ENV });
      const candidates = JSON.parse(explain.stdout).candidates as Array<{ path: string; reason: string; status: string }>;
      for (const item of listed) {
        const said = candidates.find((c) => c.path === item.file)!;
        assert.is(said.status, "below-threshold", item.file);
        // Its score is the prompt's (coverage has none); where it went is said in the same words.
        const where = (reason: string) => reason.slice(reason.lastIndexOf("; ") + 2);
        assert.is(where(said.reason), "listed in the index");
        assert.is(where(item.reason), where(said.reason), `${fixture}: ${item.file} in ${folder.path || "."}`);
        checked++;
      }
      if (checked >= 3) break;
    }
    assert.ok(checked > 0, `${fixture}: an entry in ctxinject's index`);
  }
});

test("coverage --format markdown: what differs, not every cell: agents alike at the top together, then only the folders where something changes, with the change", async () => {
  const dir = materialize("monorepo");
  const r = await runMain(["coverage", "--as", "cursor,claude"], { cwd: dir, env: ENV });
  assert.is(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    "2 agents over 14 folders (10 files). With ctxinject's hook: claude-code. Without a hook (only what they load by themselves): cursor.",
  );
  assert.match(r.stdout, /\| cursor \| `\.cursor\/rules\/general\.mdc`, `\.cursorrules`, `AGENTS\.md` \| - \| 1 \| \d+ \|/);
  assert.match(
    r.stdout,
    /- `packages\/api\/src\/handlers\/` \(1 file\): cursor: \+ `\.cursor\/rules\/api-routes\.mdc`, `\.cursor\/rules\/typescript\.mdc`, `packages\/api\/\.cursor\/rules\/handlers\.mdc` \(\+\d+ tok\)/,
  );
  // A folder where no agent gets anything else is not listed.
  assert.not.match(r.stdout, "`packages/api/src/`");
  assert.match(r.stdout, /- `\.claude\/rules\/conventions\.md` \(\d+ files\): never seen by cursor/);
});

test("coverage --format markdown with 14 agents: no table of every cell, each finding counted once with its files listed under it, small enough for a PR comment", async () => {
  const dir = materialize("monorepo");
  const r = await runMain(["coverage"], { cwd: dir, env: ENV });
  assert.is(r.status, 0, r.stderr);
  const md = r.stdout;
  // The widest table has 5 columns (the top's), not one per agent.
  const widest = Math.max(
    ...md
      .split("\n")
      .filter((line) => line.startsWith("|---"))
      .map((line) => line.split("|").length - 2),
  );
  assert.is(widest, 5);
  assert.ok(md.length < 12_000, `${md.length} characters`);
  // Counted by finding: the title's count is the number of findings listed, and a not-seen over many files is one.
  const title = /^### (\d+) findings \((\d+) warnings, (\d+) info\)$/m.exec(md);
  assert.ok(title, md);
  const listed = md.split("\n").filter((line) => line.startsWith("- **"));
  assert.is(listed.length, Number(title![1]));
  assert.is(listed.filter((line) => line.startsWith("- **warning**")).length, Number(title![2]));
  const copilot = md.indexOf("- **warning** `not-seen`: files that apply there for other agents, never seen by copilot (14 folders)\n");
  assert.ok(copilot >= 0, md);
  const under = md
    .slice(copilot)
    .split("\n")
    .slice(1)
    .filter((_line, i, all) => all.slice(0, i + 1).every((l) => l.startsWith("  - ")));
  assert.ok(under.includes("  - `.claude/rules/conventions.md` (14 folders)"), under.join("\n"));
  assert.ok(under.includes("  - `packages/api/.cursor/rules/handlers.mdc` (1 folder)"), under.join("\n"));
  assert.not.match(md, /\d+ warn\b/);
});

test("coverage: an agent without a hook is not warned, folder after folder, that it never sees a README (what only ctxinject's hook brings)", async () => {
  const dir = materialize("monorepo");
  const model = await coverageJson(dir);
  const bare = model.agents.filter((a) => !a.integration).map((a) => a.name);
  assert.equal(bare, ["copilot", "cursor", "kiro", "windsurf"]);
  for (const folder of model.folders)
    for (const agent of bare)
      for (const f of model.cells[folder.cells[agent]!]!.findings) {
        if (f.kind !== "not-seen") continue;
        assert.not.ok(
          f.files!.some((file) => file.endsWith("README.md")),
          `${agent} in ${folder.path || "/"}: ${f.files!.join(", ")}`,
        );
        // What another agent loads by itself is still said.
        if (agent === "cursor" && folder.path === "") assert.ok(f.files!.includes(".claude/rules/conventions.md"));
      }
  const md = (await runMain(["coverage"], { cwd: dir, env: ENV })).stdout;
  assert.not.match(md, "`README.md` (");
  assert.not.match(md, /`README\.md` \(\d+ files?\): never seen/);
});

test("coverage --as with an unknown agent is a usage error naming it", async () => {
  const dir = materialize("monorepo");
  const r = await runMain(["coverage", "--as", "cursor,vim"], { cwd: dir, env: ENV });
  assert.is(r.status, 2);
  assert.match(r.stderr, "--as vim: not an agent");
});

test("coverage --base REF: the folders that gain a new rule per agent, and how many more files it reaches; the repository's git config runs nothing", async () => {
  const dir = materialize("monorepo");
  git(dir, "commit", "-qm", "base");
  const marker = join(dir, "..", `fsmonitor-ran-${process.pid}`);
  writeFileSync(join(dir, ".cursor/rules/web-only.mdc"), '---\nglobs: "packages/web/**"\n---\nEvery component has a story.\n');
  git(dir, "add", "-A");
  git(dir, "config", "core.fsmonitor", `touch ${marker}`);
  const model = await coverageJson(dir, "--base", "HEAD", "--as", "cursor,claude,copilot");
  const rule = model.base!.rules.find((r) => r.file === ".cursor/rules/web-only.mdc")!;
  assert.equal(rule.agents.cursor, { before: 0, after: 3, state: "loads" } as never);
  assert.equal(rule.agents.copilot, { before: 0, after: 0, state: "never" } as never);
  const gained = model.base!.folders.filter((c) => c.gained.includes(".cursor/rules/web-only.mdc"));
  assert.equal(
    gained.map((c) => [c.folder, c.agent]),
    [
      ["packages/web/src/components", "cursor"],
      ["packages/web/src/components", "claude-code"],
      ["packages/web/src/legacy", "cursor"],
      ["packages/web/src/legacy", "claude-code"],
    ],
  );
  assert.ok(gained.every((c) => c.tokens > 0));
  const md = await runMain(["coverage", "--base", "HEAD", "--as", "cursor,claude,copilot"], { cwd: dir, env: ENV });
  assert.match(md.stdout, "this change makes `.cursor/rules/web-only.mdc` apply to 3 more files for cursor, claude-code; copilot never sees it");
  // One row per folder and change, the agents that change alike together; the findings folded away.
  assert.match(md.stdout, "| `packages/web/src/components/` | cursor, claude-code | `.cursor/rules/web-only.mdc` |  | +7 |");
  assert.match(md.stdout, /<details><summary>\d+ findings \([^)]*\) over the whole tree<\/summary>/);
  assert.not.match(md.stdout, "### At the top");
  assert.not.ok(existsSync(marker), "git ran the repository's core.fsmonitor");
  const bad = await runMain(["coverage", "--base", "no-such-ref"], { cwd: dir, env: ENV });
  assert.is(bad.status, 2);
  assert.match(bad.stderr, "--base no-such-ref: git cannot list that revision");
});

test("coverage --base HEAD with no change reports no change: a symlink at REF is another name of its target, a link leading outside is not followed", async () => {
  // fixtures/monorepo's CLAUDE.md is a symlink to AGENTS.md.
  const dir = materialize("monorepo");
  symlinkSync("../../../outside-secret.md", join(dir, "packages/api/CLAUDE.md"));
  writeFileSync(join(dir, "..", "outside-secret.md"), "# Never read\nA text outside the project.\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "base");
  const r = await runMain(["coverage", "--format", "json", "--base", "HEAD"], { cwd: dir, env: ENV });
  assert.is(r.status, 0, r.stderr);
  const model = JSON.parse(r.stdout) as Json;
  assert.equal(model.base!.folders, []);
  assert.equal(
    model.base!.rules.filter((rule) =>
      Object.values(rule.agents).some((a) => (a as { before: number; after: number }).before !== (a as { before: number; after: number }).after),
    ),
    [],
  );
  assert.match(r.stderr, "packages/api/CLAUDE.md");
  assert.not.match(r.stdout, "Never read");
});

test("coverage: an agent that gets a rule's text through another file (the same text, or a near copy) is not told it never sees it", async () => {
  const dir = materialize("coverage-copies");
  const md = await runMain(["coverage"], { cwd: dir, env: ENV });
  assert.is(md.status, 0, md.stderr);
  // Cursor loads the .cursor near copy of the Claude rule; Codex, Gemini CLI and opencode get it from the hook.
  assert.match(
    md.stdout,
    "- `.claude/rules/api-style.md` (1 file): never seen by copilot, kiro, windsurf; cline, codex, copilot-cli, cursor, cursor-agent, droid, gemini-cli, kilo, opencode, qwen-code get its text through `.cursor/rules/api-style.mdc`\n",
  );
  assert.match(
    md.stdout,
    "- `.claude/rules/naming.md` (2 files): never seen by copilot, kiro, windsurf; cline, codex, copilot-cli, cursor, cursor-agent, droid, gemini-cli, kilo, opencode, qwen-code get its text through `.cursor/rules/naming.mdc`\n",
  );
  assert.match(
    md.stdout,
    "- `.cursor/rules/api-style.mdc` (1 file): never seen by copilot, kiro, windsurf; claude-code gets its text through `.claude/rules/api-style.md`\n",
  );
  const model = await coverageJson(dir);
  const folder = model.folders.find((f) => f.path === "src/api")!;
  assert.ok(!cellOf(model, folder.cells.cursor!).findings.some((f) => f.kind === "not-seen"));
  // The hook sends Codex one copy of each text, not both.
  assert.equal(
    cellOf(model, folder.cells.codex!).adds.map((i) => i.file),
    [".cursor/rules/api-style.mdc", ".cursor/rules/naming.mdc"],
  );
});

/** Headless Chromium on PATH (test/lanes/setup.sh installs it), or "" when missing: the browser test is skipped. */
const CHROMIUM = chromiumOnPath() ?? "";

function dumpDom(browser: string, file: string, hash: string): { dom: string; console: string[] } {
  const r = runChromium(browser, file, hash, ["--enable-logging=stderr", "--v=0", "--dump-dom"]);
  return { dom: r.stdout, console: r.stderr.split("\n").filter((line) => line.includes(":CONSOLE")) };
}

testUnless(CHROMIUM === "" && "chromium is not installed (test/lanes/setup.sh installs it)")(
  "coverage --format html in a real browser: no console error, every cell shown is the JSON's, a cell lists its files with explain's reasons",
  async () => {
    const browser = CHROMIUM;
    const dir = materialize("monorepo");
    const out = join(dir, "..", `coverage-${process.pid}.html`);
    assert.is((await runMain(["coverage", "--format", "html", "--out", out], { cwd: dir, env: ENV })).status, 0);
    const html = readFileSync(out, "utf8");
    assert.not.match(html, /(src|href)=["']?https?:/);
    const model = await coverageJson(dir);
    const all = dumpDom(browser, out, "all");
    assert.equal(all.console, []);
    const shown = [
      ...all.dom.matchAll(/<td class="cell[^"]*" data-folder="([^"]*)" data-agent="([^"]*)" data-tokens="(\d+)" data-loads="(\d+)" data-adds="(\d+)"/g),
    ].map((m) => m.slice(1).join(" "));
    const expected = model.folders.flatMap((f) =>
      model.agents.map(({ name }) => {
        const cell = model.cells[f.cells[name]!]!;
        return `${f.path} ${name} ${cell.tokens} ${cell.loads.length} ${cell.adds.length}`;
      }),
    );
    assert.equal(shown, expected);
    const opened = dumpDom(browser, out, "open=packages/api/src/handlers|claude-code");
    assert.equal(opened.console, []);
    const folder = model.folders.find((f) => f.path === "packages/api/src/handlers")!;
    const cell = cellOf(model, folder.cells["claude-code"]!);
    const listed = [...opened.dom.matchAll(/<li data-file="([^"]*)">/g)].map((m) => m[1]);
    assert.equal(
      listed,
      [...cell.loads, ...cell.adds, ...cell.offers].map((i) => i.file),
    );
    const add = cell.adds[0]!;
    assert.ok(
      opened.dom.includes(add.reason.split(REPRESENTATIVE).join(folder.representative).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")),
    );
  },
);

test.run();
