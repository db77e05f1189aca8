/**
 * The shape of the tree ctxinject runs in never ends a run with an internal error (exit 70) or a stack: a file where
 * a folder is expected, a folder where a file is, a dangling link or a link loop, an empty config. Every command a
 * user runs there (build, explain, doctor, coverage, init for every host, a hook for every host's events) ends with
 * 0, 1 or 2, one line for a mistake, no stack, and a hook's stdout is JSON or nothing. (Each of these stopped a run
 * as an internal error, exit 70: a `node_modules` that is a file, commit 232c347, or a link loop; a `.gemini` or
 * `.opencode` that is a file; a looped AGENTS.md, CLAUDE.md, .cursor/rules, .gitignore or host settings file.)
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { COMMAND_HOOK_HOSTS, HOSTS } from "../../src/hosts/index.js";
import { git, HOOK_SERVER_OFF, runCli, type CliResult } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

/** One odd path: how it is made, and whether it goes in after `git init` and `git add` (it is inside .git). */
interface Odd {
  name: string;
  make(root: string): void;
}

const parentOf = (root: string, path: string) => mkdirSync(dirname(join(root, path)), { recursive: true });
const fileAt = (path: string, text = "not a folder\n"): Odd => ({
  name: `a file at ${path}`,
  make(root) {
    parentOf(root, path);
    rmSync(join(root, path), { recursive: true, force: true });
    writeFileSync(join(root, path), text);
  },
});
const folderAt = (path: string): Odd => ({
  name: `a folder at ${path}`,
  make(root) {
    rmSync(join(root, path), { recursive: true, force: true });
    mkdirSync(join(root, path), { recursive: true });
    writeFileSync(join(root, path, "inner.md"), "A file inside a folder that should be a file.\n");
  },
});
const danglingAt = (path: string): Odd => ({
  name: `a dangling link at ${path}`,
  make(root) {
    parentOf(root, path);
    symlinkSync("no-such-target", join(root, path));
  },
});
const loopAt = (path: string): Odd => ({
  name: `a link loop at ${path}`,
  make(root) {
    parentOf(root, path);
    symlinkSync(basename(path), join(root, path));
  },
});
const textAt = (path: string, text: string, what: string): Odd => ({ ...fileAt(path, text), name: `${what} at ${path}` });

const insideGit = (odd: Odd) => / (\.git|\.git\/.*)$/.test(odd.name);

/** Where links go nowhere or to themselves. */
const LINKED = [
  "AGENTS.md",
  "CLAUDE.md",
  ".claude",
  ".cursor/rules",
  ".github/copilot-instructions.md",
  ".gitignore",
  "node_modules",
  ".gemini/settings.json",
  "opencode.json",
];

/**
 * The odd paths, in groups: each path has a tree of its own for the runs in this process (one odd path cannot hide
 * another behind its own failure); each group shares one tree for the few spawned runs, the bundles and launcher.
 */
const TREES: Odd[][] = [
  [
    ".claude",
    ".cursor",
    ".github",
    ".windsurf/rules",
    ".kiro/steering",
    ".continue/rules",
    ".agents/skills",
    ".gemini",
    ".codex",
    ".opencode",
    ".kilocode",
    "node_modules",
    ".context",
    "docs/kord/rules",
  ].map((p) => fileAt(p)),
  [".claude/rules", ".claude/skills", ".cursor/rules", ".github/instructions"].map((p) => fileAt(p)),
  [fileAt(".git", "gitdir: nowhere\n")],
  [
    "AGENTS.md",
    "CLAUDE.md",
    "GEMINI.md",
    ".cursorrules",
    ".windsurfrules",
    ".clinerules",
    ".gitignore",
    ".claude/settings.json",
    ".codex/config.toml",
    "opencode.json",
  ].map(folderAt),
  [folderAt(".ctxinjectrc")],
  [folderAt(".ctxinjectrc.json")],
  [folderAt("package.json")],
  [folderAt(".git/index")],
  [folderAt(".git/HEAD")],
  LINKED.map(danglingAt),
  LINKED.map(loopAt),
  [danglingAt(".ctxinjectrc.json")],
  [loopAt(".ctxinjectrc.json")],
  [loopAt("package.json")],
  [textAt(".ctxinjectrc.json", "", "an empty file")],
  [textAt("package.json", "", "an empty file")],
  [textAt("package.json", "[]\n", "a JSON array")],
];

function tree(odds: Odd[]): string {
  const root = folder("odd-tree");
  writeFileSync(join(root, "README.md"), "# Project\n\nKeep handlers small.\n");
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src/app.ts"), "export const app = 1;\n");
  for (const odd of odds.filter((o) => !insideGit(o))) odd.make(root);
  git(root, "init", "-q");
  git(root, "add", "-A");
  for (const odd of odds.filter(insideGit)) odd.make(root);
  return root;
}

const PROMPT = "fix the retry in src/app.ts";
const PLACE = { file: "src/app.ts", prompt: PROMPT };

/** What a run did wrong by the tree's shape, or nothing. */
function fault(out: CliResult, hook: boolean): string | undefined {
  if (out.status === null || ![0, 1, 2].includes(out.status)) return `exit ${out.status}`;
  if (out.stderr.includes("internal error")) return "an internal error";
  if (/\n {4}at /.test(`\n${out.stderr}`)) return "a stack";
  if (hook && out.stdout.trim() !== "") {
    try {
      JSON.parse(out.stdout);
    } catch {
      return "a hook answer that is not JSON";
    }
  }
  return undefined;
}

/** Every command a user runs in a tree, in this process; init's last (they write). Returns what went wrong. */
async function sweep(root: string, env: Record<string, string>): Promise<string[]> {
  const faults: string[] = [];
  const check = async (args: string[], options: { input?: string; env?: Record<string, string> } = {}) => {
    const out = await runMain(args, { cwd: root, env: { ...env, ...options.env }, ...(options.input !== undefined && { input: options.input }) });
    const wrong = fault(out, args[0] === "hook");
    if (wrong) faults.push(`${args.join(" ")}: ${wrong}: ${out.stderr.trim().split("\n").slice(0, 3).join(" | ")}`);
  };
  await check(["build", "--all"]);
  await check(["build", "--files", "src/app.ts"]);
  await check(["build"], { input: PROMPT });
  await check(["explain", "--files", "src/app.ts"]);
  await check(["doctor"]);
  await check(["doctor", "--format", "json"]);
  await check(["coverage", "--format", "json"]);
  for (const host of COMMAND_HOOK_HOSTS)
    for (const sample of host.samples ?? []) {
      const session = { session_id: `odd-${sample.label}`, conversation_id: `odd-${sample.label}`, cwd: root, workspace_roots: [root] };
      await check(["hook", host.short], {
        input: JSON.stringify({ ...sample.event({ root, ...PLACE }), ...session }),
        env: host.short === "copilot" ? { COPILOT_CLI: "1" } : {},
      });
    }
  await check(["init"]);
  for (const host of HOSTS) await check(["init", `--${host.short}`, ...("plugin" in host.install ? ["--no-install"] : [])]);
  await check(["init", "--git-hook"]);
  return faults;
}

/** A home, config, cache, state and runtime folder of the suite's own: nothing is read from or written to the user's. */
function throwawayEnv(): Record<string, string> {
  const home = folder("odd-home");
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local/state"),
    XDG_RUNTIME_DIR: join(home, "run"),
    CTXINJECT_STATE_DIR: join(home, "state"),
    ...HOOK_SERVER_OFF,
  };
}

for (const odd of TREES.flat()) {
  test(`${odd.name}: every command ends with 0, 1 or 2, no internal error, no stack, a hook's answer JSON or nothing`, async () => {
    assert.equal(await sweep(tree([odd]), throwawayEnv()), []);
  });
}

for (const odds of TREES) {
  test(`spawned, in a tree with ${odds.map((o) => o.name.replace(/^a /, "")).join(", ")}: the build and a hook end with 0, 1 or 2, no internal error, no stack`, () => {
    const env = throwawayEnv();
    const root = tree(odds);
    const faults: string[] = [];
    for (const [args, input] of [
      [["build", "--all"], ""],
      [["hook", "claude"], JSON.stringify({ hook_event_name: "UserPromptSubmit", prompt: PROMPT, session_id: "odd-spawned", cwd: root })],
    ] as const) {
      const out = runCli([...args], { cwd: root, env, input });
      const wrong = fault(out, args[0] === "hook");
      if (wrong) faults.push(`${args.join(" ")}: ${wrong}: ${out.stderr.trim().split("\n").slice(0, 3).join(" | ")}`);
    }
    assert.equal(faults, []);
  });
}

test.run();
