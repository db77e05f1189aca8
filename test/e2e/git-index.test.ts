import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { bytesReader, indexedPaths } from "../../src/core/git-index.js";
import { instructionNames, locateOptionsOf, locateSource } from "../../src/core/sources/index.js";
import { defaultConfig } from "../../src/core/config.js";
import { git } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

// The index reader answers what `git ls-files --cached` with the instruction-file pathspecs answers (as discover
// asked git before): the same paths, whatever index version git wrote, and null where only git should say.

const { folder } = tempFolders(test);
const SPEC = instructionNames(locateOptionsOf(defaultConfig()));
const PATHSPECS = [...SPEC.folders.map((f) => `*${f}/*`), ...SPEC.names.map((n) => `*${n}`)];

const FILES = [
  "AGENTS.md",
  "README.md",
  "src/app.ts",
  "src/AGENTS.md",
  "docs/guide.md",
  "docs/kord/rules/review.md",
  ".cursor/rules/ts.mdc",
  ".cursor/rules/nested/deep.mdc",
  ".github/copilot-instructions.md",
  ".github/instructions/ci.instructions.md",
  ".claude/CLAUDE.md",
  "packages/api/CLAUDE.md",
  "packages/api/.claude/rules/handlers.md",
  "packages/api/src/handlers/user.ts",
  "packages/wéb/README.md",
  "packages/wéb/src/ünïcode.ts",
  "notAGENTS.md",
  "x/.cursorrules",
  "y/.cursor/rulesX/not.mdc",
  `deep/${"d".repeat(120)}/${"e".repeat(120)}/AGENTS.md`,
];

function repo(files: string[], ...setup: string[][]): string {
  const dir = folder("index");
  git(dir, "init", "-q");
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), `${file}\n`);
  }
  git(dir, "add", "-A");
  for (const args of setup) git(dir, ...args);
  return dir;
}

/** What git lists for the same pathspecs under `sub` (root-relative to it), narrowed to what locate claims. */
function gitAnswer(dir: string, sub = ""): string[] {
  const out = git(join(dir, sub), "-c", "core.quotepath=off", "ls-files", "-z", "--cached", "--", ...PATHSPECS);
  const options = locateOptionsOf(defaultConfig());
  return [...new Set(out.split("\0").filter((p) => p !== ""))].filter((p) => locateSource(p, options) !== null).sort();
}

/** Read in steps of `step` bytes through a window of `window`: entries cut anywhere, a window smaller than a path. */
function ours(dir: string, prefix = "", step = Infinity, window?: number): string[] | null {
  const found = indexedPaths(bytesReader(readFileSync(join(dir, ".git/index")), step), { ...SPEC, prefix }, window);
  const options = locateOptionsOf(defaultConfig());
  return found === null ? null : found.filter((p) => locateSource(p, options) !== null).sort();
}

for (const version of ["2", "3", "4"]) {
  test(`an index git wrote as version ${version} gives the files git lists`, () => {
    // Version 3 is written when an entry has extended flags: an intent-to-add file has them.
    const dir = repo(FILES, ["update-index", "--index-version", version]);
    if (version === "3") {
      mkdirSync(join(dir, "later"));
      writeFileSync(join(dir, "later/AGENTS.md"), "later\n");
      git(dir, "add", "-N", "later/AGENTS.md");
    }
    const expected = gitAnswer(dir);
    assert.ok(expected.length > 10, "git lists the instruction files");
    assert.equal(ours(dir), expected);
    assert.equal(ours(dir, "", 7, 64), expected, "read 7 bytes at a time through a 64-byte window");
    assert.equal(ours(dir, "", 1000, 4096), expected);
  });
}

test("a path longer than the index's 12-bit length field is read to its end, in every version", () => {
  const long = `${Array.from({ length: 17 }, (_, i) => `${i}`.padEnd(250, "x")).join("/")}/AGENTS.md`;
  for (const version of ["2", "4"]) {
    const dir = repo(["AGENTS.md", "src/app.ts"]);
    const blob = git(dir, "hash-object", "-w", "AGENTS.md").trim();
    git(dir, "update-index", "--add", "--cacheinfo", `100644,${blob},${long}`);
    git(dir, "update-index", "--index-version", version);
    const expected = gitAnswer(dir);
    assert.ok(expected.includes(long), `git lists the ${long.length}-byte path`);
    assert.equal(ours(dir), expected, `version ${version}`);
    assert.equal(ours(dir, "", 100, 256), expected, `version ${version}, a window smaller than the path`);
  }
});

test("a root below the repository's top gets the paths under it, relative to it", () => {
  const dir = repo(FILES, ["update-index", "--index-version", "4"]);
  assert.equal(ours(dir, "packages/api"), gitAnswer(dir, "packages/api"));
  assert.equal(ours(dir, "packages/wéb"), gitAnswer(dir, "packages/wéb"));
  assert.equal(ours(dir, "packages/api", 3, 32), gitAnswer(dir, "packages/api"));
});

test("a path in conflict (three stages in the index) is listed once", () => {
  const dir = repo(["AGENTS.md", "README.md"], ["commit", "-qm", "one"]);
  git(dir, "checkout", "-qb", "other");
  writeFileSync(join(dir, "AGENTS.md"), "other\n");
  git(dir, "commit", "-qam", "other");
  git(dir, "checkout", "-q", "-");
  writeFileSync(join(dir, "AGENTS.md"), "mine\n");
  git(dir, "commit", "-qam", "mine");
  // The merge stops on the conflict; its exit code says so.
  try {
    git(dir, "merge", "-q", "other");
  } catch {
    // expected: a conflict
  }
  assert.equal(ours(dir), ["AGENTS.md", "README.md"]);
});

test("a split or sparse index is left to git (null), and so is what is not an index", () => {
  const split = repo(FILES, ["update-index", "--split-index"]);
  assert.is(ours(split), null);
  assert.is(ours(split, "", 5, 16), null, "the link extension is found when read in small steps too");
  assert.is(indexedPaths(bytesReader(new Uint8Array(Buffer.from("not an index at all"))), { ...SPEC, prefix: "" }), null);
  const truncated = readFileSync(join(repo(FILES), ".git/index")).subarray(0, 200);
  assert.is(indexedPaths(bytesReader(truncated), { ...SPEC, prefix: "" }), null);
});

test("build --all from a split index still finds every tracked rule (git is asked)", async () => {
  const dir = repo(["AGENTS.md", ".cursor/rules/ts.mdc", "src/app.ts"], ["update-index", "--split-index"]);
  const result = await runMain(["build", "--all", "--format", "json"], { cwd: dir });
  assert.is(result.status, 0, result.stderr);
  const ids = (JSON.parse(result.stdout) as { entries: Array<{ id: string }> }).entries.map((e) => e.id).sort();
  assert.equal(ids, [".cursor/rules/ts.mdc", "AGENTS.md"]);
});

test("with `every`, the index gives every file git lists (coverage's tracked files), under a root too", () => {
  for (const version of ["2", "4"]) {
    const dir = repo(FILES, ["update-index", "--index-version", version]);
    const all = (sub = "") =>
      git(join(dir, sub), "ls-files", "-z", "--cached")
        .split("\0")
        .filter((p) => p !== "");
    const every = (prefix: string, step = Infinity, window?: number) =>
      indexedPaths(bytesReader(readFileSync(join(dir, ".git/index")), step), { ...SPEC, prefix, every: true }, window);
    assert.ok(all().includes("src/app.ts"), "git lists source files too");
    assert.equal(every(""), all(), `version ${version}`);
    assert.equal(every("", 7, 64), all(), `version ${version}, read in small steps`);
    assert.equal(every("packages/wéb"), all("packages/wéb"), `version ${version}, under a root`);
  }
});

test.run();
