import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { BIN, cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

test.after(cleanup);

/** The test's PATH without any folder that holds a ctxinject (a developer may have one installed). */
const PATH_WITHOUT = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((folder) => folder !== "" && !existsSync(join(folder, "ctxinject")))
  .join(delimiter);

const SETTINGS = { claude: ".claude/settings.json", codex: ".codex/hooks.json", gemini: ".gemini/settings.json" } as const;
type Agent = keyof typeof SETTINGS;
const commandsIn = (root: string, agent: Agent): string[] => {
  const hooks = JSON.parse(readFileSync(join(root, SETTINGS[agent]), "utf8")).hooks as Record<string, Array<{ hooks: Array<{ command: string }> }>>;
  return [...new Set(Object.values(hooks).flatMap((groups) => groups.flatMap((g) => g.hooks.map((h) => h.command))))];
};

/** The project's own install, as npm lays it out: node_modules/.bin/ctxinject linking to the package's bin. */
function installInProject(root: string): void {
  mkdirSync(join(root, "node_modules/.bin"), { recursive: true });
  symlinkSync(BIN, join(root, "node_modules/.bin/ctxinject"));
}

test("init --claude, --codex and --gemini in a project that does not install ctxinject name the ctxinject that ran, by its real path, run by node, and say why", async () => {
  const root = materialize("claude-host");
  for (const agent of ["claude", "codex", "gemini"] as const) {
    const out = await runMain(["init", `--${agent}`], { cwd: root, env: { PATH: PATH_WITHOUT } });
    assert.is(out.status, 0, out.stderr);
    assert.equal(commandsIn(root, agent), [`node ${BIN} hook ${agent}`]);
    assert.match(out.stderr, `runs \`node ${BIN} hook ${agent}\``);
    assert.match(out.stderr, "not installed in this project");
  }
});

test("a ctxinject on PATH, or npx's one-run node_modules/.bin, changes nothing: the project's hook names the ctxinject that ran", async () => {
  const root = materialize("claude-host");
  const bin = folder("path");
  const npxBin = join(bin, "_npx/9f/node_modules/.bin");
  mkdirSync(npxBin, { recursive: true });
  writeFileSync(join(npxBin, "ctxinject"), "#!/bin/sh\n", { mode: 0o755 });
  const viaNpx = await runMain(["init", "--codex"], { cwd: root, env: { PATH: [npxBin, PATH_WITHOUT].join(delimiter) } });
  assert.equal(commandsIn(root, "codex"), [`node ${BIN} hook codex`], viaNpx.stderr);
  writeFileSync(join(bin, "ctxinject"), "#!/bin/sh\n");
  chmodSync(join(bin, "ctxinject"), 0o755);
  const out = await runMain(["init", "--codex"], { cwd: root, env: { PATH: [npxBin, bin, PATH_WITHOUT].join(delimiter) } });
  assert.is(out.status, 0, out.stderr);
  assert.equal(commandsIn(root, "codex"), [`node ${BIN} hook codex`], "one entry, replaced");
});

test("with ctxinject installed in the project each host's command finds it from where that host runs hooks", async () => {
  const root = materialize("claude-host");
  installInProject(root);
  for (const agent of ["claude", "codex", "gemini"] as const)
    assert.is((await runMain(["init", `--${agent}`], { cwd: root, env: { PATH: PATH_WITHOUT } })).status, 0);
  assert.equal(commandsIn(root, "claude"), ['"$CLAUDE_PROJECT_DIR"/node_modules/.bin/ctxinject hook claude']);
  assert.equal(commandsIn(root, "gemini"), ["node_modules/.bin/ctxinject hook gemini"]);
  assert.equal(commandsIn(root, "codex"), ["npx --no-install ctxinject hook codex"]);
  // Run each as its host would: Claude Code with $CLAUDE_PROJECT_DIR, Gemini CLI in the project folder, Codex in
  // the folder the session started in (here one below the project).
  const runs: Array<{ agent: Agent; cwd: string; env?: Record<string, string>; event: object }> = [
    {
      agent: "claude",
      cwd: join(root, "src"),
      env: { CLAUDE_PROJECT_DIR: root },
      event: { hook_event_name: "UserPromptSubmit", session_id: "s1", cwd: root, prompt: "fix src/net/client.ts" },
    },
    { agent: "gemini", cwd: root, event: { hook_event_name: "BeforeAgent", session_id: "s2", cwd: root, prompt: "fix src/net/client.ts" } },
    {
      agent: "codex",
      cwd: join(root, "src/net"),
      event: { hook_event_name: "UserPromptSubmit", session_id: "s3", turn_id: "t1", cwd: root, prompt: "fix src/net/client.ts" },
    },
  ];
  const state = folder("init-state");
  for (const { agent, cwd, env, event } of runs) {
    const [command] = commandsIn(root, agent);
    const ran = spawnSync("/bin/sh", ["-c", command!], {
      cwd,
      input: JSON.stringify(event),
      encoding: "utf8",
      env: { ...process.env, PATH: PATH_WITHOUT, ...env, CTXINJECT_HOOK_SERVER: "0", CTXINJECT_STATE_DIR: state, NO_COLOR: "1" },
    });
    assert.is(ran.status, 0, `${agent}: ${ran.stderr}`);
    assert.match(ran.stdout, "MARK-NET-RULE", `${agent} ran ${command}`);
  }
});

test("init with no agent writes the config, names the agents the repository is set up for and what it would install, and installs nothing", async () => {
  const root = materialize("claude-host");
  const out = await runMain(["init"], { cwd: root, env: { PATH: PATH_WITHOUT } });
  assert.is(out.status, 0, out.stderr);
  assert.ok(existsSync(join(root, ".ctxinjectrc.yaml")));
  assert.match(
    out.stderr,
    `Claude Code (.claude/): \`ctxinject init --claude\` would merge hooks running \`node ${BIN} hook claude\` into .claude/settings.json`,
  );
  assert.match(out.stderr, "Codex (AGENTS.md): `ctxinject init --codex` would merge hooks");
  assert.match(out.stderr, "Cursor (.cursor/, .cursorrules): no hook to install");
  assert.not.match(out.stderr, "Gemini CLI");
  assert.not.ok(existsSync(join(root, ".claude/settings.json")), "nothing installed");
  assert.not.ok(existsSync(join(root, ".codex")), "nothing installed");

  assert.is((await runMain(["init", "--claude"], { cwd: root })).status, 0);
  const again = await runMain(["init"], { cwd: root });
  assert.is(again.status, 0, again.stderr);
  assert.match(again.stderr, "already configures ctxinject; nothing written");
  assert.match(again.stderr, "Claude Code (.claude/): installed (.claude/settings.json)");
});

test("init with no agent in a repository no agent is set up for says how to install into one", async () => {
  const root = materialize("claude-host");
  const bare = join(root, "tools");
  mkdirSync(join(bare, ".git"), { recursive: true });
  const out = await runMain(["init"], { cwd: bare });
  assert.is(out.status, 0, out.stderr);
  assert.match(out.stderr, "no agent is set up in");
  assert.match(
    out.stderr,
    "`ctxinject init --claude`, --codex, --gemini, --opencode, --cline, --qwen, --droid, --copilot, --kilo or --cursor installs into one",
  );
});

test("init with an unknown flag is a usage error that writes nothing", async () => {
  const root = materialize("claude-host");
  const out = await runMain(["init", "--windsurf"], { cwd: root });
  assert.is(out.status, 2);
  assert.match(out.stderr, "unknown option '--windsurf'");
  assert.not.ok(existsSync(join(root, ".ctxinjectrc.yaml")));
});

test.run();
