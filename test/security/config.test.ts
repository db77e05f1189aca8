import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/io/config/config.js";
import { trust } from "../../src/io/config/trust.js";
import { git, type CliResult } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

// A cloned repository is untrusted: its config is data (nothing in it runs), it cannot widen what is read or turn a
// defence off, and a config error never prints the text of the file it came from.

const { folder, write } = tempFolders(test);

/** A git repository holding `files`, with a root AGENTS.md. */
function project(files: Record<string, string> = {}): string {
  const root = folder("repo");
  write(root, { "AGENTS.md": "# Project\nRoot agents file.\n", ...files });
  git(root, "init", "-q");
  return root;
}

/** An XDG_CONFIG_HOME whose ctxinject/config.json holds `config`. */
function userConfig(config: unknown): string {
  const xdg = folder("xdg");
  write(xdg, { "ctxinject/config.json": JSON.stringify(config) });
  return xdg;
}

/** The run's own state folder, and no hook server: each call answers in its own process. */
const env = (extra: Record<string, string> = {}) => ({ CTXINJECT_STATE_DIR: folder("state"), CTXINJECT_HOOK_SERVER: "0", ...extra });

/** `build --all`: every instruction file git tracks (all of them, added first). */
async function build(root: string, extra: Record<string, string> = {}): Promise<CliResult> {
  git(root, "add", "-A");
  return await runMain(["build", "--all"], { cwd: root, env: env(extra) });
}
const hook = async (root: string, extra: Record<string, string> = {}): Promise<CliResult> =>
  await runMain(["hook", "claude"], {
    cwd: root,
    env: env(extra),
    input: JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: "sec", cwd: root, prompt: "tidy the code" }),
  });

/** Writes a marker file next to itself when it runs: the proof that the repository's code ran. */
const EVIL = 'require("node:fs").writeFileSync(require("node:path").join(__dirname, "RAN"), "evil.cjs ran");\nmodule.exports = {};\n';

for (const name of [".ctxinjectrc.yaml", ".ctxinjectrc", "ctxinject.config.yaml"]) {
  test(`${name} with \`$import: ./evil.cjs\` runs nothing, through build or hook claude; $import is an unknown key`, async () => {
    const root = project({ "evil.cjs": EVIL, [name]: "$import: ./evil.cjs\nformat: xml\n" });
    const built = await build(root);
    assert.not.ok(existsSync(join(root, "RAN")), "build ran the repository's evil.cjs");
    assert.is(built.status, 2, built.stderr);
    assert.match(built.stderr, `${name}: unknown key "$import"`);
    const hooked = await hook(root);
    assert.not.ok(existsSync(join(root, "RAN")), "hook claude ran the repository's evil.cjs");
    assert.is(hooked.status, 0, hooked.stderr);
    assert.match(JSON.parse(hooked.stdout).systemMessage, `${name}: unknown key "$import"`);
  });
}

test("a YAML config cannot construct code with a tag (!!js/function): a config error, nothing run", async () => {
  const root = project({ ".ctxinjectrc.yaml": "format: !!js/function \"function () { require('fs').writeFileSync('RAN', 'x') }\"\n" });
  const built = await build(root);
  assert.is(built.status, 2);
  assert.match(built.stderr, /\.ctxinjectrc\.yaml: cannot load the config file: not valid YAML at line 1, column \d+ \(unknown tag\)/);
  assert.not.ok(existsSync(join(root, "RAN")));
});

/** A file outside the project, reached by the repository through a symlink where Copilot's instructions go. */
function outsideSecretProject(config: unknown): { root: string; marker: string } {
  const outside = folder("outside");
  const marker = "OUTSIDE-SECRET-7f3a";
  write(outside, { "private.md": `${marker}: the user's private notes.\n` });
  const root = project({ ".ctxinjectrc.json": JSON.stringify(config) });
  mkdirSync(join(root, ".github"));
  symlinkSync(join(outside, "private.md"), join(root, ".github/copilot-instructions.md"));
  return { root, marker };
}

test('a repository\'s {"allowOutside":["/"]} is ignored with one warning: nothing of the outside file in build or the hook\'s answer', async () => {
  const { root, marker } = outsideSecretProject({ allowOutside: ["/"] });
  const built = await build(root);
  assert.is(built.status, 0, built.stderr);
  assert.not.match(built.stdout, marker);
  assert.match(built.stdout, "Root agents file");
  assert.is(built.stderr.split('"allowOutside" is ignored in a repository\'s config').length - 1, 1, built.stderr);
  assert.match(built.stderr, '.ctxinjectrc.json: "allowOutside" is ignored in a repository\'s config (it lets symlinks lead to files outside the project)');
  const hooked = await hook(root);
  assert.is(hooked.status, 0, hooked.stderr);
  assert.not.match(hooked.stdout, marker);
});

test("allowOutside in the user's own config ($XDG_CONFIG_HOME/ctxinject/config.json) is honoured", async () => {
  const { root, marker } = outsideSecretProject({});
  const xdg = userConfig({ allowOutside: ["/"] });
  const built = await build(root, { XDG_CONFIG_HOME: xdg });
  assert.is(built.status, 0, built.stderr);
  assert.match(built.stdout, marker);
  assert.not.match(built.stderr, "ignored");
  assert.match((await hook(root, { XDG_CONFIG_HOME: xdg })).stdout, marker);
});

const HIDDEN = "Use tabs.\u{E0049}\u{E0047}\u{E004E}\u{E004F}\u{E0052}\u{E0045} Keep it short.\n";

test('a repository\'s {"hiddenCharacters":"keep"} is ignored: invisible characters are still removed', async () => {
  const root = project({ "AGENTS.md": HIDDEN, ".ctxinjectrc.json": JSON.stringify({ hiddenCharacters: "keep" }) });
  const built = await build(root);
  assert.is(built.status, 0, built.stderr);
  assert.match(built.stdout, "Use tabs. Keep it short.");
  assert.not.match(built.stdout, "\u{E0049}");
  assert.match(built.stderr, '"hiddenCharacters" is ignored in a repository\'s config');
  // From the user's own config, the same key is theirs to set.
  assert.match((await build(root, { XDG_CONFIG_HOME: userConfig({ hiddenCharacters: "keep" }) })).stdout, "\u{E0049}");
});

test("a repository's redact: false and a long hookDeadlineMs are ignored; the user may set them", async () => {
  const token = `ghp_${"a1B2c3D4e5".repeat(4)}`;
  const root = project({
    "AGENTS.md": `Deploy with ${token}.\n`,
    ".ctxinjectrc.json": JSON.stringify({ redact: false, hookDeadlineMs: 600000, maxTokens: 5000 }),
  });
  const built = await build(root);
  assert.not.match(built.stdout, token);
  assert.match(built.stderr, '"redact" is ignored in a repository\'s config');
  assert.match(built.stderr, '"hookDeadlineMs" is ignored in a repository\'s config');
  assert.not.match(built.stderr, '"maxTokens" is ignored');
  assert.match((await build(root, { XDG_CONFIG_HOME: userConfig({ redact: false }) })).stdout, token);
});

const TOKEN = `ghp_${"Zx9Qw8Er7T".repeat(4)}`;
const CREDENTIALS = `https://octocat:${TOKEN}@github.com\n`;

test("a config symlinked to a credentials file is not followed out of the project, and prints no token", async () => {
  const secrets = folder("home");
  write(secrets, { ".git-credentials": CREDENTIALS });
  for (const name of [".ctxinjectrc", ".ctxinjectrc.json", ".ctxinjectrc.yaml"]) {
    const root = project();
    symlinkSync(join(secrets, ".git-credentials"), join(root, name));
    const built = await build(root);
    assert.not.match(built.stderr + built.stdout, "Zx9Qw8Er7T");
    assert.is(built.status, 0, built.stderr);
    assert.match(built.stderr, `${name}: is a symlink to a file outside the project`);
    const hooked = await hook(root);
    assert.not.match(hooked.stdout + hooked.stderr, "Zx9Qw8Er7T");
  }
});

test("a config error never prints the file's text: a token in the file, as the whole file or as a value, stays out", async () => {
  const cases: Record<string, string> = {
    ".ctxinjectrc": CREDENTIALS,
    ".ctxinjectrc.yaml": `format: ${TOKEN}\n`,
    ".ctxinjectrc.json": `{"format": "${TOKEN}"}`,
    "ctxinject.config.json": `{"format": ${TOKEN}}`,
    "ctxinject.config.yaml": `${TOKEN}: [unclosed\n`,
  };
  for (const [name, text] of Object.entries(cases)) {
    const root = project({ [name]: text });
    const built = await build(root);
    assert.is(built.status, 2, `${name}: ${built.stderr}`);
    assert.match(built.stderr, name);
    assert.not.match(built.stderr, "Zx9Qw8Er7T", `${name}: ${built.stderr}`);
    const hooked = await hook(root);
    assert.match(hooked.stdout, "systemMessage");
    assert.not.match(hooked.stdout + hooked.stderr, "Zx9Qw8Er7T", name);
  }
});

test("an edited and re-trusted .mjs config is what the next load in the same process sees (the hook server's case)", async () => {
  const root = project({ "ctxinject.config.mjs": 'export default { format: "xml" };\n' });
  const state = { CTXINJECT_STATE_DIR: folder("state"), XDG_CONFIG_HOME: folder("xdg") };
  const file = join(root, "ctxinject.config.mjs");
  trust(file, state);
  assert.is((await loadConfig(root, state, process.platform)).config.format, "xml");
  writeFileSync(file, 'export default { format: "compact" };\n');
  const untrusted = await loadConfig(root, state, process.platform);
  assert.is(untrusted.config.format, undefined, "an edited config is not trusted any more");
  trust(file, state);
  assert.is((await loadConfig(root, state, process.platform)).config.format, "compact");
  // A CommonJS config too: compiled from the text that was hashed, never taken from require's cache.
  const cjs = project({ ".ctxinjectrc.cjs": 'module.exports = { format: "xml" };\n' });
  const cjsFile = join(cjs, ".ctxinjectrc.cjs");
  trust(cjsFile, state);
  assert.is((await loadConfig(cjs, state, process.platform)).config.format, "xml");
  writeFileSync(cjsFile, 'module.exports = { format: "json" };\n');
  trust(cjsFile, state);
  assert.is((await loadConfig(cjs, state, process.platform)).config.format, "json");
});

test("explain shows where each setting came from: default, user config, repository config, flag", async () => {
  const root = project({ ".ctxinjectrc.json": JSON.stringify({ maxTokens: 4000, agents: { skipRoot: true }, allowOutside: ["/"] }) });
  const xdg = userConfig({ format: "xml", tokenizer: "approx", agents: { files: ["AGENTS.md", "CLAUDE.md"] } });
  const userFile = join(xdg, "ctxinject/config.json");
  const repoFile = join(root, ".ctxinjectrc.json");
  const text = await runMain(["explain", "--tokenizer", "o200k"], { cwd: root, env: env({ XDG_CONFIG_HOME: xdg }) });
  assert.is(text.status, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`\\n  format +user config\\s+${userFile}\\n`));
  assert.match(text.stdout, /\n {2}tokenizer +flag\n/);
  assert.match(text.stdout, new RegExp(`\\n  maxTokens +repository config\\s+${repoFile}\\n`));
  assert.match(text.stdout, new RegExp(`\\n  agents\\.files +user config\\s+${userFile}\\n`));
  assert.match(text.stdout, new RegExp(`\\n  agents\\.skipRoot +repository config\\s+${repoFile}\\n`));
  // explain's text fits 100 columns: a long path goes on the next line, under the setting.
  assert.match(text.stdout, new RegExp(`\\n  allowOutside +default \\(ignored in the repository's config\\s+${repoFile}\\)\\n`));
  assert.match(text.stdout, /\n {2}\d+ others: default\n/);
  const json = await runMain(["explain", "--json", "--tokenizer", "o200k"], { cwd: root, env: env({ XDG_CONFIG_HOME: xdg }) });
  const parsed = JSON.parse(json.stdout) as { candidates: unknown[]; settings: Record<string, { from: string; file?: string; ignored?: string }> };
  assert.ok(Array.isArray(parsed.candidates), "the existing field stays");
  assert.equal(parsed.settings.format, { from: "user", file: userFile });
  assert.equal(parsed.settings.tokenizer, { from: "flag" });
  assert.equal(parsed.settings.maxTokens, { from: "repository", file: repoFile });
  assert.equal(parsed.settings["agents.readIgnored"], { from: "default" });
  assert.equal(parsed.settings.allowOutside, { from: "default", ignored: repoFile });
  assert.equal(parsed.settings.redact, { from: "default" });
});

test.run();
