import { test } from "uvu";
import * as assert from "uvu/assert";
import { commandLine } from "../../src/core/command-line.js";
import { CtxinjectError } from "../../src/core/errors.js";
import { CLAUDE_SETTINGS, CODEX_SETTINGS, hookCommand } from "../../src/io/hook-settings.js";

const WIN_BIN = "C:\\Users\\Ana Lima\\AppData\\Roaming\\npm\\node_modules\\ctxinject\\bin\\ctxinject.js";

test("on Windows a .js bin is run by node, its path in double quotes with forward slashes", () => {
  assert.is(commandLine("win32", WIN_BIN, ["hook", "claude"]), 'node "C:/Users/Ana Lima/AppData/Roaming/npm/node_modules/ctxinject/bin/ctxinject.js" hook claude');
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
    assert.throws(() => commandLine("win32", path, ["hook", "claude"]), (error: unknown) => error instanceof CtxinjectError && String((error as Error).message).includes(path));
  }
  assert.throws(() => commandLine("win32", "C:\\Program Files\\ctxinject\\ctxinject.exe", ["hook"]), (error: unknown) => error instanceof CtxinjectError);
});

test("on POSIX a plain path stays bare and one with spaces or quotes gets single quotes", () => {
  assert.is(commandLine("linux", "/usr/local/lib/node_modules/ctxinject/bin/ctxinject.js", ["hook", "claude"]), "/usr/local/lib/node_modules/ctxinject/bin/ctxinject.js hook claude");
  assert.is(commandLine("darwin", "/Users/ana lima/bin/ctxinject", ["hook", "codex"]), "'/Users/ana lima/bin/ctxinject' hook codex");
  assert.is(commandLine("linux", "/opt/it's/ctxinject", ["hook"]), `'/opt/it'\\''s/ctxinject' hook`);
  assert.is(commandLine("linux", "/opt/$HOME/ctxinject", ["hook"]), "'/opt/$HOME/ctxinject' hook");
});

test("init's hook command on Windows names node and the bin, even where the project has its own install", () => {
  assert.is(hookCommand(CLAUDE_SETTINGS, "C:\\repo", WIN_BIN, true, "win32"), 'node "C:/Users/Ana Lima/AppData/Roaming/npm/node_modules/ctxinject/bin/ctxinject.js" hook claude');
  assert.is(hookCommand(CODEX_SETTINGS, "C:\\repo", WIN_BIN, false, "win32"), 'node "C:/Users/Ana Lima/AppData/Roaming/npm/node_modules/ctxinject/bin/ctxinject.js" hook codex');
  assert.is(hookCommand(CLAUDE_SETTINGS, "/nonexistent-root", "/home/ana lima/bin/ctxinject.js", true, "linux"), "'/home/ana lima/bin/ctxinject.js' hook claude");
});

test.run();
