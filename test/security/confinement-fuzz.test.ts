/**
 * Issue 42: random path strings (`..`, `.`, empty segments, `/`, `\`, NUL, absolute, drives, unicode) handed to the
 * confinement (io/fs/confine.ts, core/confined-path.ts) over a real tree with symlinks in and out of it: nothing outside
 * the root is ever read, and nothing outside it is ever written.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join, posix } from "node:path";
import { configuredName, whyUnclean } from "../../src/core/confined-path.js";
import { ConfinedReader, projectFile, writeTarget } from "../../src/io/fs/confine.js";
import { CtxinjectError } from "../../src/core/errors.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

const MARKER = "AWS_SECRET_MARKER";
const base = realpathSync(folder("confine-fuzz"));

const root = join(base, "repo");
const outside = join(base, "home");
mkdirSync(join(root, "a/b"), { recursive: true });
mkdirSync(join(outside, ".aws"), { recursive: true });
writeFileSync(join(outside, ".aws/config"), `${MARKER}\n`);
writeFileSync(join(outside, "AGENTS.md"), `${MARKER}\n`);
writeFileSync(join(root, "AGENTS.md"), "inside\n");
writeFileSync(join(root, "a/AGENTS.md"), "inside a\n");
writeFileSync(join(root, "a/b/AGENTS.md"), "inside b\n");
symlinkSync(outside, join(root, "out"));
symlinkSync(join(outside, ".aws/config"), join(root, "a/config"));
symlinkSync(join(root, "a"), join(root, "in"));
symlinkSync("../AGENTS.md", join(root, "a/up.md"));

const SEGMENTS = [
  "..",
  ".",
  "",
  "a",
  "b",
  "in",
  "out",
  "config",
  "up.md",
  "AGENTS.md",
  ".aws",
  "home",
  "repo",
  "x\\..\\..",
  "\0",
  "é",
  "ａ",
  "C:",
  "~",
  " ",
  "...",
];
const segment = fc.oneof(fc.constantFrom(...SEGMENTS), fc.string({ maxLength: 4 }), fc.string({ unit: "binary", maxLength: 3 }));
const prefix = fc.constantFrom("", "/", "//", "./", "../", `${base}/`, `${root}/`, `${outside}/`, "C:\\", "\\\\");
const separator = fc.constantFrom("/", "/", "/", "\\", "//");
const paths = fc.tuple(prefix, fc.array(segment, { maxLength: 7 }), separator).map(([p, parts, sep]) => p + parts.join(sep));
/** The reader's runs mix in paths the tree holds, so that some accepted path is always among them (the property is never vacuous by chance). */
const readerPaths = fc.oneof(paths, fc.constantFrom("AGENTS.md", "a/AGENTS.md", "a/b/AGENTS.md", "in/AGENTS.md", "a/up.md"));

/** Whether an absolute real path lies in `dir`. */
const within = (dir: string, real: string) => real === dir || real.startsWith(`${dir}/`);

test("a clean path never climbs: no `..`, `.` or empty segment, not absolute, no backslash or NUL", () => {
  fc.assert(
    fc.property(paths, (path) => {
      if (whyUnclean(path) !== null) return;
      assert.is(posix.normalize(path), path, path);
      assert.not.ok(path.startsWith("/") || path.includes("\\") || path.includes("\0") || path.split("/").includes(".."), path);
      const named = configuredName(path);
      assert.ok("path" in named && named.path === path);
    }),
    { numRuns: 3000 },
  );
});

test("the reader accepts nothing whose real path leaves the root, and never returns the outside marker", () => {
  const reader = new ConfinedReader(root);
  const realRoot = realpathSync(root);
  let accepted = 0;
  fc.assert(
    fc.property(readerPaths, (path) => {
      let read;
      try {
        read = reader.read(path, (bytes, length) => bytes.toString("utf8", 0, length));
      } catch {
        return; // no such file, a folder, a loop: nothing read
      }
      if ("refused" in read) return;
      accepted++;
      assert.not.ok(read.value.includes(MARKER), `${JSON.stringify(path)} read the outside file`);
      assert.ok(within(realRoot, realpathSync(join(root, path))), `${JSON.stringify(path)} accepted outside the root`);
    }),
    { numRuns: 3000 },
  );
  // The known good paths are accepted (the property above is not vacuous).
  for (const path of ["AGENTS.md", "a/AGENTS.md", "a/b/AGENTS.md", "in/AGENTS.md", "a/up.md"]) assert.not.ok("refused" in reader.read(path, () => 1), path);
  for (const path of ["out/AGENTS.md", "a/config", "out/.aws/config", "a/../../home/AGENTS.md", "../home/AGENTS.md", `${outside}/AGENTS.md`]) {
    let refused = true;
    try {
      refused = "refused" in reader.read(path, () => 1);
    } catch {
      // unreadable: refused all the same
    }
    assert.ok(refused, path);
  }
  assert.ok(accepted > 0);
});

/** Every file and link under `dir` (links not followed), with its bytes. */
function snapshot(dir: string): string {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((x, y) => (x.name < y.name ? -1 : 1))) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(`${path}=${entry.isSymbolicLink() ? "link" : readFileSync(path, "latin1")}`);
    }
  };
  walk(dir);
  return out.join("\n");
}

/** What the file system itself answers a write it cannot make (a folder or a file in the way, a name too long). */
const REFUSED_BY_THE_SYSTEM = new Set(["EISDIR", "ENOTDIR", "ENAMETOOLONG", "EEXIST", "ENOENT", "EINVAL"]);

test("a write through projectFile never lands outside the root, whatever the path", () => {
  const before = snapshot(outside);
  const realRoot = realpathSync(root);
  fc.assert(
    fc.property(paths, (path) => {
      let written: string;
      try {
        const target = projectFile(root, path);
        writeTarget(target, "written\n");
        written = target.path;
      } catch (error) {
        // A refusal is a CtxinjectError; anything else is an ordinary failure to write (a folder there, a name too long).
        if (!(error instanceof CtxinjectError) && !REFUSED_BY_THE_SYSTEM.has(String((error as NodeJS.ErrnoException).code))) throw error;
        return;
      }
      assert.ok(within(realRoot, realpathSync(written)), `${JSON.stringify(path)} written at ${realpathSync(written)}`);
    }),
    { numRuns: 1500 },
  );
  assert.is(snapshot(outside), before, "nothing outside the root changed");
});

test.run();
