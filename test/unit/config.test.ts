import { test } from "uvu";
import * as assert from "uvu/assert";
import { validateConfig } from "../../src/core/config.js";
import { CtxinjectError } from "../../src/core/errors.js";

function failure(raw: unknown): CtxinjectError {
  try {
    validateConfig(raw, ".ctxinjectrc.json");
  } catch (error) {
    if (error instanceof CtxinjectError) return error;
    throw error;
  }
  throw new Error("expected the config to be refused");
}

test("an empty config gives the defaults", () => {
  const config = validateConfig({}, "x");
  assert.equal(config.agents, { files: ["AGENTS.md"], skipRoot: false, readIgnored: true });
  assert.equal(config.rules.dirs, []);
  assert.is(config.redact, true);
});

test("every documented key is accepted", () => {
  const config = validateConfig(
    {
      format: "xml",
      maxTokens: 8000,
      tokenizer: "approx",
      minRelevance: 0.3,
      sources: { "directory-readme": { enabled: false }, "rules-injector": { priority: "high" } },
      rules: { dirs: ["docs/rules"] },
      agents: { files: ["AGENTS.md", "CLAUDE.md"], skipRoot: true },
      keywords: { ultrawork: { pattern: "\\bulw\\b", content: "Go.", priority: "critical" } },
      custom: [
        { id: "a", content: "x" },
        { id: "b", file: "docs/b.md", priority: "low" },
      ],
      ignore: ["legacy/**"],
      redact: false,
    },
    "x",
  );
  assert.is(config.format, "xml");
  assert.equal(config.agents.files, ["AGENTS.md", "CLAUDE.md"]);
  assert.is(config.sources["rules-injector"]?.priority, "high");
});

test("an unknown key names the file and the key, and lists what is expected", () => {
  const error = failure({ formatt: "xml" });
  assert.is(error.exitCode, 2);
  assert.match(error.message, '.ctxinjectrc.json: unknown key "formatt"');
  assert.match(error.message, "format");
});

test("an unknown nested key names its full path", () => {
  assert.match(failure({ agents: { file: ["A.md"] } }).message, 'unknown key "agents.file"');
  assert.match(failure({ sources: { readmes: {} } }).message, 'unknown key "sources.readmes"');
});

test("a wrong type names the key, the expected type and what it got", () => {
  assert.match(failure({ maxTokens: "lots" }).message, '"maxTokens" must be a positive whole number, got string "lots"');
  assert.match(failure({ format: "html" }).message, '"format" must be one of markdown, xml, compact, json');
  assert.match(failure({ agents: { files: "AGENTS.md" } }).message, '"agents.files" must be a list of strings');
  assert.match(failure({ sources: { custom: { priority: "urgent" } } }).message, '"sources.custom.priority" must be one of critical');
  assert.match(failure({ ignore: ["ok", 3] }).message, '"ignore[1]" must be a non-empty string');
});

test("a custom entry needs an id and exactly one of content or file", () => {
  assert.match(failure({ custom: [{ content: "x" }] }).message, '"custom[0].id"');
  assert.match(failure({ custom: [{ id: "a" }] }).message, "exactly one of content or file");
  assert.match(failure({ custom: [{ id: "a", content: "x", file: "y" }] }).message, "exactly one of content or file");
});

test("a config that is not an object is refused", () => {
  assert.match(failure(["a"]).message, "must hold an object of settings, got a list");
});

test("a wrong value is shown short and redacted, a wrong key too: a config may be a symlink to a file of secrets", () => {
  const token = `ghp_${"Zx9Qw8Er7T".repeat(4)}`;
  assert.match(failure({ format: token }).message, 'got string "[REDACTED:github-token]"');
  assert.not.match(failure({ format: `x${"y".repeat(500)}` }).message, "y".repeat(41));
  assert.not.match(failure({ [token]: 1 }).message, "Zx9Qw8Er7T");
  assert.not.match(failure("https://user:" + token + "@github.com").message, "Zx9Qw8Er7T");
  assert.not.match(failure({ keywords: { x: { pattern: `${token}(`, content: "c" } } }).message, "Zx9Qw8Er7T");
});

test.run();
