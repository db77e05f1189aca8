import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gitIgnoreMatcher, type IgnoreFile } from "../../src/core/gitignore.js";
import { sized } from "../helpers/lane.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

const ignored = (files: IgnoreFile[], path: string) => gitIgnoreMatcher(files, { ignoreCase: false })(path);

test("a deeper .gitignore overrides a higher one, and the last matching line wins", () => {
  const files = [
    { dir: "", text: "*.md\n" },
    { dir: "docs", text: "!keep.md\n" },
  ];
  assert.ok(ignored(files, "README.md"));
  assert.ok(ignored(files, "docs/other.md"));
  assert.not.ok(ignored(files, "docs/keep.md"));
  assert.not.ok(ignored([{ dir: "", text: "*.md\n!AGENTS.md\n" }], "AGENTS.md"));
  assert.ok(ignored([{ dir: "", text: "!AGENTS.md\n*.md\n" }], "AGENTS.md"));
});

test("nothing under an ignored folder comes back, whatever a deeper file says", () => {
  const files = [
    { dir: "", text: "generated/\n" },
    { dir: "generated", text: "!AGENTS.md\n" },
  ];
  assert.ok(ignored(files, "generated/AGENTS.md"));
  assert.ok(ignored([{ dir: "", text: "build/\n!build/AGENTS.md\n" }], "build/AGENTS.md"));
  assert.not.ok(ignored([{ dir: "", text: "build/\n" }], "build"), "a folder-only pattern does not match a file");
});

test("patterns are relative to the folder of their file", () => {
  const files = [{ dir: "packages/api", text: "/AGENTS.md\n" }];
  assert.ok(ignored(files, "packages/api/AGENTS.md"));
  assert.not.ok(ignored(files, "packages/api/src/AGENTS.md"));
  assert.not.ok(ignored(files, "AGENTS.md"));
  assert.not.ok(ignored(files, "packages/api"), "a .gitignore does not apply to its own folder");
});

// Git itself is the oracle: random ignore files in a scratch repository, checked with `git check-ignore --no-index`.
const DIRS = ["", "a", "a/b", "a/b/c", "c", ".cursor/rules", "docs/kord/rules", "we[i]rd*"];
const FILES = ["AGENTS.md", "README.md", "x.mdc", "notes.txt"];
const SEGMENTS = ["a", "b", "c", ".cursor", "rules", "kord", ...FILES, "*", "**", "*.md", "*.mdc", "?", "[ab]", "x*", "\\!x.mdc", "AGENTS.m?"];
const pattern = fc
  .tuple(fc.boolean(), fc.boolean(), fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 3 }), fc.boolean())
  .map(([negated, anchored, segments, dirOnly]) => `${negated ? "!" : ""}${anchored ? "/" : ""}${segments.join("/")}${dirOnly ? "/" : ""}`);
const ignoreFile = fc.array(fc.oneof(pattern, fc.constantFrom("", "# comment", "*.md   ")), { maxLength: 5 }).map((lines) => `${lines.join("\n")}\n`);
const PLACES = ["<global>", "<exclude>", ...DIRS];

// Each run spawns git twice: a few dozen in the fast lane, the full oracle in the slow one (npm run test:hosts).
test("agrees with git check-ignore on random ignore files", () => {
  const scratch = folder("gitignore");
  fc.assert(
    fc.property(fc.dictionary(fc.constantFrom(...PLACES), ignoreFile, { maxKeys: 5 }), (layout) => {
      const repo = mkdtempSync(join(scratch, "repo-"));
      const git = (args: string[], input?: string) =>
        spawnSync("git", ["-c", `core.excludesFile=${join(repo, ".global-ignore")}`, ...args], {
          cwd: repo,
          input,
          encoding: "utf8",
          env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
        });
      git(["init", "-q"]);
      const paths = DIRS.flatMap((dir) => FILES.map((file) => (dir === "" ? file : `${dir}/${file}`)));
      for (const path of paths) {
        mkdirSync(dirname(join(repo, path)), { recursive: true });
        writeFileSync(join(repo, path), "x");
      }
      const files: IgnoreFile[] = [];
      for (const place of PLACES) {
        const text = layout[place];
        if (text === undefined) continue;
        const where = place === "<global>" ? ".global-ignore" : place === "<exclude>" ? ".git/info/exclude" : join(place, ".gitignore");
        mkdirSync(dirname(join(repo, where)), { recursive: true });
        writeFileSync(join(repo, where), text);
        files.push({ dir: place.startsWith("<") ? "" : place, text });
      }
      const result = git(["check-ignore", "--no-index", "-z", "--stdin"], paths.join("\0"));
      assert.ok(result.status === 0 || result.status === 1, result.stderr);
      const byGit = new Set(result.stdout.split("\0").filter(Boolean));
      const matcher = gitIgnoreMatcher(files, { ignoreCase: false });
      for (const path of paths) assert.is(matcher(path), byGit.has(path), `${path} with ${JSON.stringify(layout)}`);
      rmSync(repo, { recursive: true, force: true });
    }),
    { numRuns: sized(30, 300) },
  );
});

test.run();
