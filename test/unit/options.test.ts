import { test } from "uvu";
import * as assert from "uvu/assert";
import { defaultConfig } from "../../src/core/config.js";
import { DEFAULT_MAX_TOKENS, resolveOptions } from "../../src/core/options.js";
import { DEFAULT_MIN_RELEVANCE } from "../../src/core/select.js";

test("with nothing set, every option has its default", () => {
  assert.equal(resolveOptions({}, defaultConfig()), {
    format: "markdown",
    maxTokens: DEFAULT_MAX_TOKENS,
    tokenizer: "approx",
    minRelevance: DEFAULT_MIN_RELEVANCE,
    provenance: true,
    all: false,
    rules: [],
    mode: undefined,
  });
});

test("the config file's values win over the defaults, and a flag wins over the config", () => {
  const config = { ...defaultConfig(), format: "xml" as const, maxTokens: 900, tokenizer: "o200k" as const, minRelevance: 0.5 };
  const fromConfig = resolveOptions({}, config);
  assert.equal([fromConfig.format, fromConfig.maxTokens, fromConfig.tokenizer, fromConfig.minRelevance], ["xml", 900, "o200k", 0.5]);
  const fromFlags = resolveOptions({ format: "json", maxTokens: 50, tokenizer: "cl100k", minRelevance: 0 }, config);
  assert.equal([fromFlags.format, fromFlags.maxTokens, fromFlags.tokenizer, fromFlags.minRelevance], ["json", 50, "cl100k", 0]);
});

test("a targeted build has a budget by default; --all and a host-capped hook have none unless one is set", () => {
  assert.is(resolveOptions({}, defaultConfig()).maxTokens, 8000);
  assert.is(resolveOptions({ all: true }, defaultConfig()).maxTokens, null);
  assert.is(resolveOptions({ hostCap: true }, defaultConfig()).maxTokens, null);
  assert.is(resolveOptions({ all: true }, { ...defaultConfig(), maxTokens: 500 }).maxTokens, 500);
  assert.is(resolveOptions({ hostCap: true, maxTokens: 70 }, defaultConfig()).maxTokens, 70);
});

test.run();
