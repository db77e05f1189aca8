import { test } from "uvu";
import * as assert from "uvu/assert";
import { everySettingOrigin, guardRepositorySettings, mergeConfigLayers, settingOrigins, userOnlySettings } from "../../src/core/config-layers.js";
import { parseConfigText } from "../../src/core/config-text.js";
import { CtxinjectError } from "../../src/core/errors.js";

const TOKEN = `ghp_${"Zx9Qw8Er7T".repeat(4)}`;

function message(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof CtxinjectError) return error.message;
    throw error;
  }
  throw new Error("expected a config error");
}

test("a repository's weakening settings are left out, one warning each naming the key; harmless values stay", () => {
  const { settings, warnings, ignored } = guardRepositorySettings(
    { allowOutside: ["/"], hiddenCharacters: "keep", redact: false, hookDeadlineMs: 60_000, format: "xml" },
    ".ctxinjectrc.json",
  );
  assert.equal(settings, { format: "xml" });
  assert.equal(ignored, ["allowOutside", "hiddenCharacters", "redact", "hookDeadlineMs"]);
  assert.is(warnings.length, 4);
  assert.match(warnings[0]!.message, '"allowOutside" is ignored in a repository\'s config');
  assert.is(warnings[0]!.file, ".ctxinjectrc.json");
  const harmless = guardRepositorySettings({ allowOutside: [], hiddenCharacters: "strip", redact: true, hookDeadlineMs: 500 }, "x");
  assert.equal(harmless.warnings, []);
  assert.equal(harmless.settings, { allowOutside: [], hiddenCharacters: "strip", redact: true, hookDeadlineMs: 500 });
  assert.ok(userOnlySettings().every((s) => typeof s.weakens === "function" && s.why !== ""));
});

test("layers merge later over earlier, objects key by key, with each leaf's origin", () => {
  const { config, origins } = mergeConfigLayers([
    { from: "user", file: "/u/config.json", settings: { format: "xml", agents: { files: ["AGENTS.md", "CLAUDE.md"] }, allowOutside: ["/shared"] } },
    { from: "repository", file: "/r/.ctxinjectrc.json", settings: { format: "compact", agents: { skipRoot: true } } },
  ]);
  assert.is(config.format, "compact");
  assert.equal(config.agents, { files: ["AGENTS.md", "CLAUDE.md"], skipRoot: true, readIgnored: true });
  assert.equal(config.allowOutside, ["/shared"]);
  assert.equal(origins.format, { from: "repository", file: "/r/.ctxinjectrc.json" });
  assert.equal(origins["agents.files"], { from: "user", file: "/u/config.json" });
  const withFlags = everySettingOrigin(settingOrigins(origins, { format: "json" }));
  assert.equal(withFlags.format, { from: "flag" });
  assert.equal(withFlags.redact, { from: "default" });
  assert.equal(withFlags["agents.readIgnored"], { from: "default" });
});

test("data config text: $import is a plain key, YAML tags construct nothing, errors say where and never what", () => {
  assert.equal(parseConfigText("$import: ./evil.cjs\n", "yaml", "f"), { $import: "./evil.cjs" });
  assert.match(
    message(() => parseConfigText('a: !!js/function "function () {}"', "yaml", "f")),
    /not valid YAML at line 1, column \d+ \(unknown tag\)$/,
  );
  const yaml = message(() => parseConfigText(`${TOKEN}: [unclosed\n`, "yaml", "f"));
  assert.not.match(yaml, "Zx9Qw8Er7T");
  const json = message(() => parseConfigText(`{"a": https://u:${TOKEN}@github.com}`, "json", "f"));
  assert.is(json, "f: cannot load the config file: not valid JSON");
  assert.is(
    message(() => parseConfigText('{\n  "a": 1,\n}', "json", "f")),
    "f: cannot load the config file: not valid JSON at line 3, column 1 (expected double-quoted property name)",
  );
  assert.equal(parseConfigText('{"name":"x","ctxinject":{"format":"xml"}}', "package.json", "f"), { format: "xml" });
  assert.equal(parseConfigText('{"format":"xml"}', "yaml", "f"), { format: "xml" }, "an extensionless file may be JSON");
});

test.run();
