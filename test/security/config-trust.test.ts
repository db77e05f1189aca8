import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadConfig } from "../../src/io/config/config.js";
import { trust } from "../../src/io/config/trust.js";
import { git, runCli } from "../helpers/cli.js";
import { tempFolders } from "../helpers/temp.js";

// Trust records a JavaScript config's own text. A trusted config that loads another file of the repository (a
// helper, a package in node_modules) would run that file as it is at each run: edited after trust, it would run
// unasked. A trusted config loads Node's built-in modules only.

const { folder } = tempFolders(test);

function tree(files: Record<string, string>): string {
  const root = folder("repo");
  for (const [path, text] of Object.entries({ "AGENTS.md": "# Project\nRoot agents file.\n", ...files })) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  git(root, "init", "-q");
  return root;
}

/** A helper that leaves a marker beside itself when it runs: the proof that code trust never saw ran. */
const marking = (cjs: boolean) =>
  cjs
    ? 'require("node:fs").writeFileSync(require("node:path").join(__dirname, "HELPER-RAN"), "x");\nmodule.exports = { format: "xml" };\n'
    : 'import { writeFileSync } from "node:fs";\nwriteFileSync(new URL("./HELPER-RAN", import.meta.url), "x");\nexport default { format: "xml" };\n';

const cases = [
  { config: ".ctxinjectrc.cjs", text: 'module.exports = require("./helper.cjs");\n', helper: "helper.cjs", specifier: "./helper.cjs", cjs: true },
  {
    config: "ctxinject.config.mjs",
    text: 'import helper from "./helper.mjs";\nexport default helper;\n',
    helper: "helper.mjs",
    specifier: "./helper.mjs",
    cjs: false,
  },
  {
    config: ".ctxinjectrc.cjs",
    text: 'module.exports = require("settings-pkg");\n',
    helper: "node_modules/settings-pkg/index.js",
    specifier: "settings-pkg",
    cjs: true,
  },
  {
    config: "ctxinject.config.mjs",
    text: 'import helper from "settings-pkg";\nexport default helper;\n',
    helper: "node_modules/settings-pkg/index.js",
    specifier: "settings-pkg",
    cjs: true,
  },
];

for (const { config, text, helper, specifier, cjs } of cases) {
  test(`a trusted ${config} that loads "${specifier}" never runs it, before or after the helper is edited, and says which load it refused`, async () => {
    const root = tree({ [config]: text, [helper]: cjs ? 'module.exports = { format: "xml" };\n' : 'export default { format: "xml" };\n' });
    if (helper.startsWith("node_modules/"))
      writeFileSync(join(root, "node_modules/settings-pkg/package.json"), JSON.stringify({ name: "settings-pkg", main: "index.js" }));
    const env = { CTXINJECT_STATE_DIR: folder("state"), XDG_CONFIG_HOME: folder("xdg") };
    trust(join(root, config), env);
    // The repository changes the helper after the user trusted the config: the config's text is unchanged.
    writeFileSync(join(root, helper), marking(cjs));
    const marker = join(dirname(join(root, helper)), "HELPER-RAN");
    let message = "";
    await loadConfig(root, env, process.platform).catch((error: Error) => (message = error.message));
    assert.not.ok(existsSync(marker), `the edited ${helper} ran under the trust given to ${config}`);
    assert.match(message, config);
    assert.match(message, `loads "${specifier}"`);
    assert.match(message, "built-in modules");
  });
}

test("through the CLI, a trusted config's refused helper is a usage error naming the config, and nothing of the helper runs", () => {
  const root = tree({ ".ctxinjectrc.cjs": 'module.exports = require("./helper.cjs");\n', "helper.cjs": marking(true) });
  const env = { CTXINJECT_STATE_DIR: folder("state"), XDG_CONFIG_HOME: folder("xdg"), CTXINJECT_HOOK_SERVER: "0" };
  assert.is(runCli(["trust"], { cwd: root, env }).status, 0);
  const built = runCli(["build"], { cwd: root, env });
  assert.not.ok(existsSync(join(root, "HELPER-RAN")), "build ran the helper");
  assert.is(built.status, 2, built.stderr);
  assert.match(built.stderr, '.ctxinjectrc.cjs: cannot load the config file: it loads "./helper.cjs"');
  assert.not.match(built.stderr, "    at ");
});

test("a trusted config that loads only Node's built-in modules still runs, CommonJS and ES module alike", async () => {
  for (const [config, text] of [
    [
      ".ctxinjectrc.cjs",
      'const { join } = require("node:path");\nconst os = require("os");\nmodule.exports = { format: typeof join === "function" && typeof os.tmpdir === "function" ? "xml" : "json" };\n',
    ],
    ["ctxinject.config.mjs", 'import { join } from "node:path";\nexport default { format: typeof join === "function" ? "xml" : "json" };\n'],
  ] as const) {
    const root = tree({ [config]: text });
    const env = { CTXINJECT_STATE_DIR: folder("state"), XDG_CONFIG_HOME: folder("xdg") };
    trust(join(root, config), env);
    assert.is((await loadConfig(root, env, process.platform)).config.format, "xml", config);
  }
});

test.run();
