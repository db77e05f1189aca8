import { test } from "uvu";
import * as assert from "uvu/assert";
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { BIN, git, HOOK_SERVER_OFF, testEnvironment } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

// A hook command in a user's own settings runs in every project the user opens. Resolved through a project's
// node_modules (npx, node_modules/.bin, a plugin that looks from the workspace up), it runs whatever ctxinject the
// next repository ships under that name. init writes such a file for --user, and where the repository links a
// project settings folder to the user's (.claude -> ~/.claude).

const { folder } = tempFolders(test);

const MARKER = "REPOSITORY-CTXINJECT-RAN";

/** A repository whose own node_modules holds a ctxinject (bin link and package) that leaves a marker when run. */
function repository(): { root: string; marker: string } {
  const root = folder("repo");
  writeFileSync(join(root, "AGENTS.md"), "# Project\n");
  git(root, "init", "-q");
  const marker = join(root, MARKER);
  const bin = join(root, "node_modules/ctxinject/bin/ctxinject.js");
  mkdirSync(dirname(bin), { recursive: true });
  writeFileSync(bin, `#!/usr/bin/env node\nrequire("node:fs").writeFileSync(${JSON.stringify(marker)}, process.argv.slice(2).join(" "));\n`);
  chmodSync(bin, 0o755);
  mkdirSync(join(root, "node_modules/.bin"));
  symlinkSync("../ctxinject/bin/ctxinject.js", join(root, "node_modules/.bin/ctxinject"));
  return { root, marker };
}

/** The test's PATH without any folder that holds a ctxinject. */
const PATH = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((dir) => dir !== "" && !existsSync(join(dir, "ctxinject")))
  .join(delimiter);
const REAL_BIN = realpathSync(BIN);
const USER_COMMAND = `node ${REAL_BIN} hook claude`;

const commandsIn = (file: string): string[] => {
  const settings = JSON.parse(readFileSync(file, "utf8")) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
  return Object.values(settings.hooks).flatMap((groups) => groups.flatMap((g) => g.hooks.map((h) => h.command)));
};

test("init --claude where the repository links .claude to the user's ~/.claude writes nothing into the user's settings", async () => {
  const { root } = repository();
  const home = folder("home");
  mkdirSync(join(home, ".claude"));
  symlinkSync(join(home, ".claude"), join(root, ".claude"));
  const out = await runMain(["init", "--claude"], { cwd: root, env: { HOME: home, PATH } });
  // A project's settings folder that leads out of it is refused whole (io/fs/confine.ts): no command can land there.
  assert.is(out.status, 2, out.stderr);
  assert.match(out.stderr, ".claude is a symlink in the project");
  assert.not.ok(existsSync(join(home, ".claude/settings.json")), "init wrote through the link into the user's settings");
});

test("init --claude --user run through a project's node_modules/.bin link (as npx runs it) names the real file, run by node", () => {
  const { root } = repository();
  // The project's bin link leads to this ctxinject: npx in the project would run it through that link.
  rmSync(join(root, "node_modules/.bin/ctxinject"));
  symlinkSync(BIN, join(root, "node_modules/.bin/ctxinject"));
  const home = folder("home");
  const run = spawnSync(process.execPath, [join(root, "node_modules/.bin/ctxinject"), "init", "--claude", "--user"], {
    cwd: root,
    encoding: "utf8",
    env: testEnvironment({ HOME: home, PATH }),
  });
  assert.is(run.status, 0, run.stderr);
  const commands = commandsIn(join(home, ".claude/settings.json"));
  assert.ok(commands.length > 0, run.stderr);
  for (const command of commands) assert.is(command, USER_COMMAND);
});

test("the Cline plugin init --cline --user writes runs this ctxinject, never the one a workspace's node_modules holds", async () => {
  const { root, marker } = repository();
  const clineDir = folder("cline");
  const out = await runMain(["init", "--cline", "--user"], { cwd: root, env: { CLINE_DIR: clineDir, PATH } });
  assert.is(out.status, 0, out.stderr);
  const file = join(clineDir, "plugins/ctxinject.js");
  const saved = { ...process.env };
  Object.assign(process.env, HOOK_SERVER_OFF, { CTXINJECT_STATE_DIR: folder("state"), PATH });
  try {
    type Plugin = { setup(api: unknown, ctx: unknown): void; hooks: { beforeRun(c: unknown): Promise<unknown> } };
    const plugin = ((await import(pathToFileURL(file).href)) as { default: Plugin }).default;
    // Cline opens the hostile repository as its workspace.
    plugin.setup({}, { session: { sessionId: "s1" }, workspaceInfo: { rootPath: root } });
    await plugin.hooks.beforeRun({ snapshot: { agentId: "a", conversationId: "c", messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }] } });
    assert.not.ok(existsSync(marker), "the user's Cline plugin ran the workspace's node_modules/ctxinject");
    assert.match(readFileSync(file, "utf8"), JSON.stringify(REAL_BIN));
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
});

test("init --cline where the repository links .cline to the user's ~/.cline writes no plugin there", async () => {
  const { root } = repository();
  const home = folder("home");
  mkdirSync(join(home, ".cline"));
  symlinkSync(join(home, ".cline"), join(root, ".cline"));
  const out = await runMain(["init", "--cline"], { cwd: root, env: { HOME: home, PATH } });
  assert.is(out.status, 2, out.stderr);
  assert.match(out.stderr, ".cline is a symlink in the project");
  assert.not.ok(existsSync(join(home, ".cline/plugins/ctxinject.js")), "init wrote a user-wide plugin through the link");
});

test("the loader init --kilo --user writes loads this ctxinject's plugin, not one a relative PATH folder finds in the project opened", async () => {
  const { root, marker } = repository();
  const plugin = join(root, "node_modules/ctxinject/dist/integrations/kilo.js");
  mkdirSync(dirname(plugin), { recursive: true });
  writeFileSync(plugin, `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "kilo plugin");\n`);
  const config = folder("xdg");
  const out = await runMain(["init", "--kilo", "--user", "--no-install"], { cwd: root, env: { XDG_CONFIG_HOME: config, PATH } });
  assert.is(out.status, 0, out.stderr);
  const loader = join(folder("loader"), "loader.mjs");
  writeFileSync(loader, readFileSync(join(config, "kilo/plugin/ctxinject.js"), "utf8"));
  const cwd = process.cwd();
  const path = process.env.PATH;
  try {
    // Kilo runs in the project; the user's PATH has a relative folder (some put node_modules/.bin there).
    process.chdir(root);
    process.env.PATH = ["node_modules/.bin", PATH].join(delimiter);
    const loaded = (await import(pathToFileURL(loader).href)) as { CtxinjectPlugin: unknown };
    assert.not.ok(existsSync(marker), "the user's loader loaded the project's node_modules/ctxinject");
    assert.is(loaded.CtxinjectPlugin, (await import(pathToFileURL(join(REAL_BIN, "../../dist/integrations/kilo.js")).href)).CtxinjectPlugin);
  } finally {
    process.chdir(cwd);
    process.env.PATH = path;
  }
});

test("a project's own settings still name the project's install (a team commits them)", async () => {
  const { root } = repository();
  const out = await runMain(["init", "--claude"], { cwd: root, env: { PATH } });
  assert.is(out.status, 0, out.stderr);
  assert.equal(
    commandsIn(join(root, ".claude/settings.json")),
    Array(commandsIn(join(root, ".claude/settings.json")).length).fill('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/ctxinject hook claude'),
  );
});

test.run();
