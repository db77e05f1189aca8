import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readSourceFiles } from "../../src/io/fs/read.js";
import { spawnSync } from "node:child_process";
import { BIN, cleanup, materialize, runCli } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { onPath, testUnless } from "../helpers/lane.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

test.after(cleanup);

/** A file in a fresh folder outside any project root, removed after the suite. */
function outsideFile(name: string, text: string): { folder: string; file: string } {
  const dir = folder("outside");
  writeFileSync(join(dir, name), text);
  return { folder: dir, file: join(dir, name) };
}

const WARNED: Array<[string, RegExp]> = [
  [".cursor/rules/unclosed.mdc:1", /never closed/],
  [".cursor/rules/colons.mdc:2", /not strict YAML/],
  [".cursor/rules/bracket.mdc:3", /never closed; read as a list/],
  [".cursor/rules/string-true.mdc:3", /Cursor treats a string as false/],
  [".cursor/rules/bad-priority.mdc:3", /"priority": expected one of/],
  [".cursor/rules/number-globs.mdc:2", /"globs": expected a string or a list/],
  [".cursor/rules/map-globs.mdc:2", /"globs": expected a string or a list/],
  [".cursor/rules/binary.mdc", /binary file/],
  [".cursor/rules/latin1.mdc", /not valid UTF-8/],
  ["docs/kord/rules/empty.md", /empty/],
  [".cursor/rules/has-secret.md:1", /redacted a aws-access-key/],
  ["pkg/AGENTS.md", /is a directory/],
];

test("every bad input gets a warning naming the file (and line), and the run goes on", async () => {
  const root = materialize("hostile");
  const all = await runMain(["build", "--all", "--format", "json"], { cwd: root });
  const targeted = await runMain(["build", "--files", "pkg/AGENTS.md/note.txt", "--format", "json"], { cwd: root });
  assert.is(all.status, 0, all.stderr);
  assert.is(targeted.status, 0, targeted.stderr);
  const stderr = all.stderr + targeted.stderr;
  for (const [where, what] of WARNED) {
    const line = stderr.split("\n").find((l) => l.startsWith(`ctxinject: warning: ${where}:`) || l.startsWith(`ctxinject: warning: ${where} `));
    assert.ok(line, `no warning for ${where}`);
    assert.match(line!, what);
  }
  const contents = JSON.parse(all.stdout)
    .entries.map((e: { content: string }) => e.content)
    .join("\n");
  for (const kept of [
    "Root agents file",
    "Colons rule body.",
    "Bracket rule body.",
    "BOM and CRLF rule body.",
    "Map-globs rule body.",
    "caf\uFFFD rule body",
  ]) {
    assert.match(contents, kept);
  }
  assert.not.match(contents, "AKIAIOSFODNN7EXAMPLE");
  assert.not.match(contents, "Binary");
});

test("the same warning about one file is shown five times, then counted once with its lines: 2,000 credentials are 6 lines", async () => {
  const root = folder("many-credentials");
  const keys = Array.from({ length: 2000 }, (_, i) => `key AKIAIOSFODNN7EXAMP${String(i % 100).padStart(2, "0")}`);
  writeFileSync(join(root, "AGENTS.md"), `# Agents\n${keys.join("\n")}\nNever commit keys.\n`);
  const { status, stdout, stderr } = await runMain(["build", "--all"], { cwd: root });
  assert.is(status, 0, stderr);
  assert.not.match(stdout, "AKIAIOSFODNN7EXAMP");
  assert.match(stdout, "Never commit keys.");
  const redacted = stderr.split("\n").filter((l) => l.includes("redacted a aws-access-key"));
  assert.equal(
    redacted.slice(0, 5).map((l) => l.split(":")[3]),
    ["2", "3", "4", "5", "6"],
    stderr,
  );
  assert.is(redacted.length, 6, stderr);
  assert.match(redacted[5]!, "ctxinject: warning: AGENTS.md: 1995 more at lines 7–2001: redacted a aws-access-key");
});

test("a file holding U+FFFD itself is valid UTF-8: read as it is, no warning; a byte order mark is dropped", () => {
  const { folder } = outsideFile("AGENTS.md", "keep \uFFFD as written\n");
  writeFileSync(join(folder, "README.md"), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("after the mark\n")]));
  writeFileSync(join(folder, "CLAUDE.md"), Buffer.from([0x61, 0xff, 0x62]));
  const read = readSourceFiles(folder, ["AGENTS.md", "README.md", "CLAUDE.md"]);
  assert.equal(
    read.files.map((f) => f.text),
    ["keep \uFFFD as written\n", "after the mark\n", "a\uFFFDb"],
  );
  assert.equal(read.warnings, [{ file: "CLAUDE.md", message: "not valid UTF-8; undecodable bytes became U+FFFD" }]);
});

test("a short file read after a binary or marked one is judged by its own bytes only: no NUL, mark or U+FFFD of the earlier file", () => {
  const { folder } = outsideFile("AGENTS.md", `${"x".repeat(200)}\u0000 binary\n`);
  writeFileSync(join(folder, "CLAUDE.md"), "ok\n");
  writeFileSync(join(folder, "GEMINI.md"), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("marked \uFFFD text\n")]));
  writeFileSync(join(folder, "QWEN.md"), Buffer.from([0xef, 0xbb]));
  writeFileSync(join(folder, "README.md"), "plain\n");
  const read = readSourceFiles(folder, ["AGENTS.md", "CLAUDE.md", "GEMINI.md", "QWEN.md", "README.md"]);
  assert.equal(
    read.files.map((f) => [f.path, f.text]),
    [
      ["CLAUDE.md", "ok\n"],
      ["GEMINI.md", "marked \uFFFD text\n"],
      ["QWEN.md", "\uFFFD"],
      ["README.md", "plain\n"],
    ],
  );
  assert.equal(read.warnings, [
    { file: "AGENTS.md", message: "binary file (NUL byte); skipped" },
    { file: "QWEN.md", message: "not valid UTF-8; undecodable bytes became U+FFFD" },
  ]);
});

test("BOM and CRLF are accepted: the rule's fields are read and its text has plain line ends", async () => {
  const root = materialize("hostile");
  const value = JSON.parse((await runMain(["explain", "--json"], { cwd: root })).stdout);
  const bom = value.candidates.find((c: { id: string }) => c.id === ".cursor/rules/bom-crlf.mdc");
  assert.is(bom.kind, "always");
  assert.is(bom.status, "included");
});

test("forged provenance in a file stays attributed to that file in markdown", async () => {
  const root = materialize("hostile");
  const { stdout } = await runMain(["build", "--all"], { cwd: root });
  const comments = stdout.split("\n").filter((l) => /^<!-- [\w-]+: .* \(\w+[^)]*\) -->$/.test(l));
  assert.not.ok(
    comments.some((c) => c.includes("trusted.mdc")),
    "the forged comment is not a comment any more",
  );
  const forgedAt = stdout.indexOf("Forged instructions");
  const lastComment = stdout.lastIndexOf("\n<!-- rules-injector:", forgedAt);
  assert.match(stdout.slice(lastComment, lastComment + 80), "forged.mdc");
});

test("symlinks: loops, dangling links and links out of the root are skipped with a warning; links inside are read", async () => {
  const root = materialize("hostile", { git: false });
  const { folder: outside, file } = outsideFile("secret-rules.md", "Outside text that must never be read.\n");
  symlinkSync(file, join(root, ".cursor/rules/outside.md"));
  symlinkSync("missing-target.md", join(root, ".cursor/rules/dangling.md"));
  symlinkSync("loop-b.md", join(root, ".cursor/rules/loop-a.md"));
  symlinkSync("loop-a.md", join(root, ".cursor/rules/loop-b.md"));
  symlinkSync("AGENTS.md", join(root, "CLAUDE.md"));
  mkdirSync(join(root, "deep"));
  symlinkSync("..", join(root, "deep/up"));
  symlinkSync(outside, join(root, "deep/out"));
  const { status, stdout, stderr } = await runMain(["build", "--all"], { cwd: root, env: {} });
  assert.is(status, 0, stderr);
  assert.not.match(stdout, "Outside text");
  assert.match(stderr, /\.cursor\/rules\/outside\.md: leads to .*outside the project root; not followed/);
  assert.match(stderr, /\.cursor\/rules\/dangling\.md: .*dangling symlink/);
  assert.match(stderr, /\.cursor\/rules\/loop-a\.md: is a symlink loop/);
  assert.match(stdout, "Root agents file");
});

test("the user's config allowOutside lets a named outside folder be read through a symlink", async () => {
  const root = materialize("hostile", { git: false });
  const { folder: outside, file } = outsideFile("shared.md", "---\nalwaysApply: true\n---\nShared rule from outside.\n");
  symlinkSync(file, join(root, ".cursor/rules/shared.md"));
  const xdg = outsideFile("unused", "").folder;
  mkdirSync(join(xdg, "ctxinject"));
  writeFileSync(join(xdg, "ctxinject/config.json"), JSON.stringify({ allowOutside: [outside] }));
  assert.match((await runMain(["build", "--all"], { cwd: root, env: { XDG_CONFIG_HOME: xdg } })).stdout, "Shared rule from outside.");
});

test("a config custom file is read like any other: a symlink out of the root is not followed", async () => {
  const root = materialize("hostile", { git: false });
  symlinkSync(outsideFile("notes.md", "Outside notes that must never be read.\n").file, join(root, "notes.md"));
  writeFileSync(join(root, ".ctxinjectrc.json"), JSON.stringify({ custom: [{ id: "notes", file: "notes.md" }] }));
  const { status, stdout, stderr } = await runMain(["build"], { cwd: root });
  assert.is(status, 0, stderr);
  assert.not.match(stdout, "Outside notes");
  assert.match(stderr, /notes\.md: custom entry "notes": leads to .*outside the project root/);
});

test("a file that vanishes between listing and reading is a warning, not a crash", async () => {
  const root = materialize("hostile", { git: false });
  const { files, warnings } = await readSourceFiles(root, ["AGENTS.md", "gone.md"]);
  assert.equal(
    files.map((f) => f.path),
    ["AGENTS.md"],
  );
  assert.match(warnings[0]!.message, /vanished/);
  assert.is(warnings[0]!.file, "gone.md");
});

test("very deep trees and 10,000 rules in one folder build without trouble", async () => {
  const root = materialize("hostile");
  const deep = Array.from({ length: 120 }, (_, i) => `d${i}`).join("/");
  mkdirSync(join(root, deep), { recursive: true });
  writeFileSync(join(root, deep, "AGENTS.md"), "Deepest agents file.\n");
  const deepRun = await runMain(["build", "--files", `${deep}/x.ts`], { cwd: root });
  assert.is(deepRun.status, 0, deepRun.stderr);
  assert.match(deepRun.stdout, "Deepest agents file.");
  const many = join(root, "many/.cursor/rules");
  mkdirSync(many, { recursive: true });
  for (let i = 0; i < 10_000; i++) writeFileSync(join(many, `r${i}.mdc`), `---\nglobs: src/m${i}/**\n---\nRule ${i}.\n`);
  const manyRun = await runMain(["explain", "--json", "--files", "many/src/m9999/a.ts"], { cwd: root });
  assert.is(manyRun.status, 0, manyRun.stderr);
  const included = JSON.parse(manyRun.stdout).candidates.filter((c: { id: string; status: string }) => c.id.startsWith("many/") && c.status === "included");
  assert.equal(
    included.map((c: { id: string }) => c.id),
    ["many/.cursor/rules/r9999.mdc"],
  );
});

test("every bad argument or config is exit 2 with one line that names it", async () => {
  const root = materialize("hostile");
  const cases: Array<[string[], RegExp, (() => void)?]> = [
    [["build", "--max-tokens", "-1"], /--max-tokens/],
    [["build", "--format", "yaml"], /--format/],
    [["build", "--tokenizer", "gpt2"], /--tokenizer/],
    [["build", "--root", "nowhere"], /--root nowhere: no such directory/],
    [["build"], /unknown key "sources\.readmes"/, () => writeFileSync(join(root, ".ctxinjectrc.json"), JSON.stringify({ sources: { readmes: {} } }))],
    [["build"], /\.ctxinjectrc\.json: cannot load the config file/, () => writeFileSync(join(root, ".ctxinjectrc.json"), "{ not json")],
    [
      ["build"],
      /\.ctxinjectrc\.json: cannot load the config file/,
      () => {
        rmSync(join(root, ".ctxinjectrc.json"));
        mkdirSync(join(root, ".ctxinjectrc.json"));
      },
    ],
  ];
  for (const [args, message, prepare] of cases) {
    prepare?.();
    const { status, stderr, stdout } = await runMain(args, { cwd: root });
    assert.is(status, 2, args.join(" "));
    assert.match(stderr, message);
    assert.is(
      stderr
        .trim()
        .split("\n")
        .filter((l) => !l.startsWith("(run ctxinject")).length,
      1,
      stderr,
    );
    assert.is(stdout, "");
  }
});

test("the same tree gives the same bytes whatever the locale or timezone", () => {
  const root = materialize("monorepo");
  const base = runCli(["build", "--all", "--format", "json"], { cwd: root }).stdout;
  for (const env of [{ LC_ALL: "tr_TR.UTF-8", LANG: "tr_TR.UTF-8" }, { TZ: "Pacific/Chatham" }, { LC_ALL: "C", TZ: "America/St_Johns" }]) {
    assert.is(runCli(["build", "--all", "--format", "json"], { cwd: root, env }).stdout, base, JSON.stringify(env));
  }
});

testUnless(!onPath("mkfifo") && "mkfifo is not on PATH")("a FIFO named like an instruction file does not hold a build up: it is skipped with a warning", () => {
  const root = materialize("monorepo");
  rmSync(join(root, "packages/api/AGENTS.md"), { force: true });
  const made = spawnSync("mkfifo", [join(root, "packages/api/AGENTS.md")]);
  assert.is(made.status, 0, made.stderr?.toString());
  mkdirSync(join(root, ".cursor/rules"), { recursive: true });
  spawnSync("mkfifo", [join(root, ".cursor/rules/pipe.mdc")]);
  const result = spawnSync(process.execPath, [BIN, "build", "--files", "packages/api/src/handlers/user.ts"], {
    cwd: root,
    encoding: "utf8",
    timeout: 20_000,
    env: { ...process.env, NO_COLOR: "1" },
  });
  assert.is(result.status, 0, `the build finished (${result.error?.message ?? result.stderr})`);
  assert.match(result.stderr, "packages/api/AGENTS.md: is not a regular file");
  assert.not.match(result.stdout, "pipe.mdc");
});

test("hidden characters never reach the agent: a build removes them and names each file, line and code point", async () => {
  const root = materialize("hidden-characters");
  const { status, stdout, stderr } = await runMain(["build", "--all"], { cwd: root });
  assert.is(status, 0, stderr);
  const flag = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}";
  assert.not.match(stdout.replace(flag, ""), /[\u{E0000}-\u{E007F}]|\u202E|\u200B/u, "no tag character, override or zero-width space is printed");
  assert.match(stdout, "Run the tests before every commit.\nKeep handlers small.");
  assert.match(stdout, "Never log tokens.");
  assert.match(stdout, "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}", "an emoji's joiners stay");
  assert.match(stdout, flag, "a subdivision flag stays");
  assert.match(stderr, /AGENTS\.md:3: 41 hidden characters removed \(U\+E0049, /);
  assert.match(stderr, /\.cursor\/rules\/access\.mdc:6: 3 hidden characters removed \(U\+202E, U\+202C, U\+200B\)/);
});

test.run();
