import { test } from "uvu";
import * as assert from "uvu/assert";
import { parseConfigText } from "../../src/core/config-text.js";
import { configDocs } from "../../scripts/config-table.js";
import { renderConfigTemplate } from "../../src/core/config-docs.js";
import { configLeaves, hostGroup, hostGroupDefaults } from "../../src/core/config-table.js";
import { completeConfig, defaultConfig, validateConfig } from "../../src/core/config.js";
import { userOnlySettings } from "../../src/core/config-layers.js";
import { HOST_CONFIG } from "../../src/hosts/index.js";

test("README.md and docs/config.md hold the config table as the table says it (npx tsx scripts/config-table.ts writes them)", () => {
  for (const { file, current, expected } of configDocs()) {
    assert.ok(expected !== null, `${file} has lost its <!-- config-table:start/end --> markers`);
    assert.ok(current === expected, `${file}'s config table is stale: run npx tsx scripts/config-table.ts`);
  }
});

test("the docs' table names every setting, its default and the value a repository may not set", () => {
  const table = configDocs().find((d) => d.file.endsWith("config.md"))!.expected!;
  for (const { key } of configLeaves(HOST_CONFIG)) assert.match(table, key);
  assert.match(table, "| `hookDeadlineMs` | whole number of milliseconds from 1 to 600000 | `1500` |");
  assert.match(table, "(*user* for keep)");
  assert.match(table, "`--max-tokens`");
});

test("init's template, uncommented, is a config that checks and gives the defaults", () => {
  const template = renderConfigTemplate(HOST_CONFIG);
  const uncommented = template
    .split("\n")
    .filter((line) => /^# [a-zA-Z]+: \S/.test(line))
    .map((line) => line.slice(2))
    .join("\n");
  const config = validateConfig(parseConfigText(uncommented, "yaml", "t"), ".ctxinjectrc.yaml", [], HOST_CONFIG);
  const { format, maxTokens, tokenizer, minRelevance, allReadmes, ...rest } = config;
  assert.equal(rest, defaultConfig(HOST_CONFIG));
  assert.equal([format, maxTokens, tokenizer, minRelevance, allReadmes], ["markdown", 8000, "approx", 0.35, false]);
  assert.ok(
    template.split("\n").every((line) => line.length <= 118 && /^[\x20-\x7e]*$/.test(line)),
    "lines fit and are ASCII (the bundle is)",
  );
});

test("the template's header names every setting a repository may not weaken", () => {
  const header = renderConfigTemplate().split("\n\n")[0]!;
  for (const { key } of userOnlySettings()) assert.match(header, key);
  assert.match(header, "hiddenCharacters: keep, allowOutside, a hookDeadlineMs above 1500 and");
});

test("every host's group is filled with the defaults its members declare, a config's values kept", () => {
  for (const host of HOST_CONFIG) {
    const declared = Object.fromEntries(Object.entries(hostGroup(host).members).map(([member, leaf]) => [member, leaf.default]));
    assert.equal(hostGroupDefaults(host), declared, host.key);
    assert.equal(defaultConfig(HOST_CONFIG)[host.key], declared, host.key);
  }
  const claude = HOST_CONFIG.find((h) => h.maxChars !== undefined)!;
  const given = completeConfig({ [claude.key]: { includeNative: true } }, HOST_CONFIG)[claude.key];
  assert.equal(given, { includeNative: true, maxChars: claude.maxChars!.default });
});

test.run();
