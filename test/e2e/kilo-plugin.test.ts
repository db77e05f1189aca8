/**
 * Kilo takes opencode's plugin API from `.kilo/plugin/`: `init --kilo` writes the loader there (and in the user's
 * config folder with --user), and the plugin leaves out what Kilo loads itself. The real CLI runs in
 * test/hosts/kilo.test.ts.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readFileSync, symlinkSync, mkdirSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Hooks, PluginInput } from "@opencode-ai/plugin";
import KiloPlugin from "../../src/integrations/kilo.js";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { stateDirWhileRunning } from "../helpers/state-env.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

type ChatOutput = Parameters<NonNullable<Hooks["chat.message"]>>[1];

stateDirWhileRunning(test, "ctxinject-kilo-state-");
test.after(cleanup);

test("init --kilo writes .kilo/plugin/ctxinject.js (loading ctxinject/kilo) and .kilo/package.json with Kilo's plugin package", async () => {
  const root = materialize("claude-host");
  const out = await runMain(["init", "--kilo", "--no-install"], { cwd: root });
  assert.is(out.status, 0, out.stderr);
  const loader = readFileSync(join(root, ".kilo/plugin/ctxinject.js"), "utf8");
  assert.match(loader, 'load("ctxinject/kilo")');
  assert.match(loader, "dist/integrations/kilo.js");
  assert.equal(JSON.parse(readFileSync(join(root, ".kilo/package.json"), "utf8")).dependencies, { "@kilocode/plugin": "7.7.7" });
  assert.match(out.stderr, "Kilo installs it at its next start");
  assert.not.ok(existsSync(join(root, ".opencode")), "not opencode's folder");
  assert.match((await runMain(["init", "--kilo", "--no-install"], { cwd: root })).stderr, "unchanged");
});

test("init --kilo --user writes the loader into Kilo's user config folder, not the project", async () => {
  const root = materialize("claude-host");
  const config = folder("kilo-config");
  const out = await runMain(["init", "--kilo", "--user", "--no-install"], { cwd: root, env: { XDG_CONFIG_HOME: config } });
  assert.is(out.status, 0, out.stderr);
  assert.ok(existsSync(join(config, "kilo/plugin/ctxinject.js")));
  assert.ok(existsSync(join(config, "kilo/package.json")));
  assert.not.ok(existsSync(join(root, ".kilo")));
});

test("the Kilo plugin leaves out what Kilo loads itself (the root AGENTS.md) and sends what it does not (.cursorrules, a named file's rule)", async () => {
  const root = materialize("claude-host");
  const client = { app: { log: async () => {} } };
  const hooks = await KiloPlugin({ directory: root, worktree: root, client } as unknown as PluginInput);
  const output = {
    message: { id: "msg_1", sessionID: "ses_kilo1", role: "user", time: { created: 1 }, agent: "code", model: { providerID: "p", modelID: "m" } },
    parts: [{ id: "prt_1", sessionID: "ses_kilo1", messageID: "msg_1", type: "text", text: "fix the retry in src/net/client.ts" }],
  } as unknown as ChatOutput;
  await hooks["chat.message"]!({ sessionID: "ses_kilo1" }, output);
  const added = (output.parts as Array<{ text?: string; synthetic?: boolean }>)
    .filter((p) => p.synthetic)
    .map((p) => p.text)
    .join("\n");
  assert.match(added, "MARK-NET-RULE");
  assert.match(added, "MARK-ROOT-CURSORRULES");
  assert.not.match(added, "MARK-AGENTS-ROOT");
});

test("the Kilo plugin leaves out, with the prompt, the nested AGENTS.md above a file the prompt names (Kilo appends it to the read of that file); an edit of it without a read brings it", async () => {
  const root = materialize("claude-host");
  const client = { app: { log: async () => {} } };
  const hooks = await KiloPlugin({ directory: root, worktree: root, client } as unknown as PluginInput);
  const output = {
    message: { id: "msg_1", sessionID: "ses_kilo2", role: "user", time: { created: 1 }, agent: "code", model: { providerID: "p", modelID: "m" } },
    parts: [{ id: "prt_1", sessionID: "ses_kilo2", messageID: "msg_1", type: "text", text: "fix the bug in packages/api/src/handler.ts" }],
  } as unknown as ChatOutput;
  await hooks["chat.message"]!({ sessionID: "ses_kilo2" }, output);
  const added = (output.parts as Array<{ text?: string; synthetic?: boolean }>)
    .filter((p) => p.synthetic)
    .map((p) => p.text)
    .join("\n");
  assert.match(added, "MARK-API-RULE");
  assert.not.match(added, "MARK-API-AGENTS");
  const edit = { title: "", output: "Edit applied.", metadata: {} };
  await hooks["tool.execute.after"]!(
    { tool: "edit", sessionID: "ses_kilo2", callID: "c1", args: { filePath: join(root, "packages/api/src/handler.ts") } },
    edit,
  );
  assert.match(edit.output, "MARK-API-AGENTS");
});

test("the loader init --kilo writes finds the ctxinject on PATH and loads its Kilo plugin", async () => {
  const dir = folder("kilo-loader");
  const path = process.env.PATH;
  try {
    const root = materialize("claude-host");
    assert.is((await runMain(["init", "--kilo", "--no-install"], { cwd: root })).status, 0);
    mkdirSync(join(dir, "bin"));
    symlinkSync(join(process.cwd(), "bin/ctxinject.js"), join(dir, "bin/ctxinject"));
    const file = join(dir, "loader.mjs");
    writeFileSync(file, readFileSync(join(root, ".kilo/plugin/ctxinject.js"), "utf8"));
    process.env.PATH = [join(dir, "bin"), path].join(delimiter);
    const loaded = (await import(pathToFileURL(file).href)) as { CtxinjectPlugin: unknown };
    assert.is(loaded.CtxinjectPlugin, (await import("../../dist/integrations/kilo.js")).CtxinjectPlugin);
  } finally {
    process.env.PATH = path;
  }
});

test.run();
