import { test } from "uvu";
import * as assert from "uvu/assert";
import { CtxinjectError } from "../../src/core/errors.js";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { chooseHookCommand, commandLine, commandWords, type HookCommandRequest } from "../../src/core/command-line.js";
import { pathFolderOf } from "../../src/io/host-setup/hook-settings.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

const WIN_BIN = "C:\\Users\\Ana Lima\\AppData\\Roaming\\npm\\node_modules\\ctxinject\\bin\\ctxinject.js";

test("on Windows a .js bin is run by node, its path in double quotes with forward slashes", () => {
  assert.is(
    commandLine("win32", WIN_BIN, ["hook", "claude"]),
    'node "C:/Users/Ana Lima/AppData/Roaming/npm/node_modules/ctxinject/bin/ctxinject.js" hook claude',
  );
  assert.is(commandLine("win32", "C:\\tools\\ctxinject.js", ["hook", "codex"]), 'node "C:/tools/ctxinject.js" hook codex');
});

test("on Windows a program named without a path (npx) stays first and bare, its arguments plain words", () => {
  assert.is(commandLine("win32", "npx", ["--no-install", "ctxinject", "hook", "gemini"]), "npx --no-install ctxinject hook gemini");
});

test("on Windows no single quotes are written (cmd.exe passes them on as part of the word)", () => {
  assert.is(commandLine("win32", "C:\\it's here\\ctxinject.js", ["hook", "claude"]), `node "C:/it's here/ctxinject.js" hook claude`);
});

test("on Windows a path that cmd.exe or PowerShell would expand is refused with a usage error, not written", () => {
  for (const path of ["C:\\Users\\$admin\\ctxinject.js", "C:\\100%\\ctxinject.js", "C:\\a`b\\ctxinject.js"]) {
    assert.throws(
      () => commandLine("win32", path, ["hook", "claude"]),
      (error: unknown) => error instanceof CtxinjectError && String((error as Error).message).includes(path),
    );
  }
  assert.throws(
    () => commandLine("win32", "C:\\Program Files\\ctxinject\\ctxinject.exe", ["hook"]),
    (error: unknown) => error instanceof CtxinjectError,
  );
});

test("on POSIX a plain path stays bare and one with spaces or quotes gets single quotes", () => {
  assert.is(
    commandLine("linux", "/usr/local/lib/node_modules/ctxinject/bin/ctxinject.js", ["hook", "claude"]),
    "/usr/local/lib/node_modules/ctxinject/bin/ctxinject.js hook claude",
  );
  assert.is(commandLine("darwin", "/Users/ana lima/bin/ctxinject", ["hook", "codex"]), "'/Users/ana lima/bin/ctxinject' hook codex");
  assert.is(commandLine("linux", "/opt/it's/ctxinject", ["hook"]), `'/opt/it'\\''s/ctxinject' hook`);
  assert.is(commandLine("linux", "/opt/$HOME/ctxinject", ["hook"]), "'/opt/$HOME/ctxinject' hook");
});

const request = (over: Partial<HookCommandRequest>): HookCommandRequest => ({
  agent: "claude",
  hostName: "Claude Code",
  platform: "linux",
  forProject: true,
  projectDir: { variable: "CLAUDE_PROJECT_DIR" },
  install: null,
  self: "/tmp/npx-cache/_npx/1a2b/node_modules/.bin/ctxinject",
  ...over,
});
const MACHINE_PATH = /\/tmp|[A-Z]:[\\/]|\/home|\/Users/;
const NPM = { bin: "node_modules/.bin/ctxinject", manager: "npm" };

test("a project's hook command for its own install never names a path of this machine, whatever the layout, on any platform", () => {
  for (const platform of ["linux", "darwin", "win32"])
    for (const projectDir of [{ variable: "CLAUDE_PROJECT_DIR" }, "cwd", "none"] as const)
      for (const install of [NPM, { bin: "../../node_modules/.bin/ctxinject", manager: "pnpm" }, { runner: "yarn", manager: "Yarn Plug'n'Play" } as const]) {
        const self = platform === "win32" ? WIN_BIN : "/tmp/npx-cache/_npx/1a2b/node_modules/.bin/ctxinject";
        const { command, why } = chooseHookCommand(request({ platform, projectDir, install, self }));
        assert.not.match(command, MACHINE_PATH, `${platform} ${JSON.stringify(projectDir)} ${JSON.stringify(install)}`);
        assert.ok(command.endsWith(" hook claude"), command);
        assert.ok(why.length > 0);
      }
});

test("a project's own install is reached through the host's project variable, the folder it runs hooks in, or npx", () => {
  assert.is(chooseHookCommand(request({ install: NPM })).command, '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/ctxinject hook claude');
  const gemini = chooseHookCommand(request({ agent: "gemini", hostName: "Gemini CLI", projectDir: "cwd", install: NPM }));
  assert.is(gemini.command, "node_modules/.bin/ctxinject hook gemini");
  assert.match(gemini.why, "runs hooks in the project folder");
  const codex = chooseHookCommand(request({ agent: "codex", hostName: "Codex", projectDir: "none", install: NPM }));
  assert.is(codex.command, "npx --no-install ctxinject hook codex");
  assert.match(codex.why, "may be below the project");
  assert.is(chooseHookCommand(request({ platform: "win32", install: NPM, self: WIN_BIN })).command, "npx --no-install ctxinject hook claude");
  // A package of a workspace whose root installs it (pnpm add -w); Yarn Plug'n'Play has no node_modules at all.
  assert.is(
    chooseHookCommand(request({ install: { bin: "../../node_modules/.bin/ctxinject", manager: "pnpm" } })).command,
    '"$CLAUDE_PROJECT_DIR"/../../node_modules/.bin/ctxinject hook claude',
  );
  assert.is(chooseHookCommand(request({ install: { runner: "yarn", manager: "Yarn Plug'n'Play" } })).command, "yarn ctxinject hook claude");
});

test("without a project install a project's hook runs the ctxinject that ran, by its path, with node: never npx, which fails on every prompt where nothing answers it", () => {
  for (const projectDir of [{ variable: "CLAUDE_PROJECT_DIR" }, "cwd", "none"] as const) {
    const { command, why } = chooseHookCommand(request({ projectDir, self: "/usr/lib/node_modules/ctxinject/bin/ctxinject.js" }));
    assert.is(command, "node /usr/lib/node_modules/ctxinject/bin/ctxinject.js hook claude");
    assert.match(why, "not installed in this project");
    assert.match(why, "`ctxinject init --claude` again");
  }
  assert.is(
    chooseHookCommand(request({ platform: "win32", self: WIN_BIN })).command,
    'node "C:/Users/Ana Lima/AppData/Roaming/npm/node_modules/ctxinject/bin/ctxinject.js" hook claude',
  );
});

test("a user's own settings name this ctxinject by its path, quoted for the platform", () => {
  assert.is(
    chooseHookCommand(request({ forProject: false, platform: "win32", self: WIN_BIN, install: NPM })).command,
    'node "C:/Users/Ana Lima/AppData/Roaming/npm/node_modules/ctxinject/bin/ctxinject.js" hook claude',
  );
  assert.is(
    chooseHookCommand(request({ forProject: false, self: "/home/ana lima/bin/ctxinject.js" })).command,
    "node '/home/ana lima/bin/ctxinject.js' hook claude",
  );
});

test("doctor reads a hook command's words as the shell does: quotes, the host's project variable; a line it cannot judge is null", () => {
  const vars = { CLAUDE_PROJECT_DIR: "/w/my app" };
  assert.equal(commandWords('"$CLAUDE_PROJECT_DIR"/node_modules/.bin/ctxinject hook claude', "linux", vars), [
    "/w/my app/node_modules/.bin/ctxinject",
    "hook",
    "claude",
  ]);
  assert.equal(commandWords("node '/home/ana lima/bin/ctxinject.js' hook claude", "linux", {}), ["node", "/home/ana lima/bin/ctxinject.js", "hook", "claude"]);
  assert.equal(commandWords('node "C:/Users/Ana Lima/ctxinject.js" hook claude', "win32", {}), ["node", "C:/Users/Ana Lima/ctxinject.js", "hook", "claude"]);
  // Every form init writes reads back to its program and arguments.
  for (const install of [null, { bin: "../../node_modules/.bin/ctxinject", manager: "pnpm" }]) {
    const { command } = chooseHookCommand(request({ install, self: "/opt/it's/ctxinject.js" }));
    const words = commandWords(command, "linux", { CLAUDE_PROJECT_DIR: "/p" })!;
    assert.equal(words.slice(-2), ["hook", "claude"], command);
  }
  assert.is(commandWords("ctxinject hook claude | tee log", "linux", {}), null);
  assert.is(commandWords("$(which ctxinject) hook claude", "linux", {}), null);
  assert.is(commandWords('"$HOME"/bin/ctxinject hook claude', "linux", {}), null);
});

test("PATH lookup skips npm's one-run node_modules/.bin folders and finds a Windows .cmd through PATHEXT", () => {
  const dir = folder("path");
  const npx = join(dir, "_npx/1a2b/node_modules/.bin");
  const global = join(dir, "global/bin");
  mkdirSync(npx, { recursive: true });
  mkdirSync(global, { recursive: true });
  writeFileSync(join(npx, "ctxinject"), "#!/bin/sh\n", { mode: 0o755 });
  assert.is(pathFolderOf("ctxinject", { PATH: [npx, global].join(delimiter) }, "linux"), null);
  writeFileSync(join(global, "ctxinject"), "#!/bin/sh\n", { mode: 0o644 });
  assert.is(pathFolderOf("ctxinject", { PATH: [npx, global].join(delimiter) }, "linux"), null, "not executable");
  chmodSync(join(global, "ctxinject"), 0o755);
  assert.is(pathFolderOf("ctxinject", { PATH: [npx, global].join(delimiter) }, "linux"), global);
  writeFileSync(join(global, "ctxinject.CMD"), "@echo off\n");
  assert.is(pathFolderOf("ctxinject", { Path: global, PATHEXT: ".EXE;.CMD" }, "win32"), global);
});

test.run();
