import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { FIXTURES, REPO, testEnvironment } from "../helpers/cli.js";
// @ts-expect-error: a plain .mjs script of the build, without types
import { libraryFiles } from "../../scripts/pack-list.mjs";
import { testUnless } from "../helpers/lane.js";
import { tempFolders } from "../helpers/temp.js";

// What `npm pack` puts in the tarball (the build has run: npm test builds first). A user runs the CLI from
// dist/bundle and imports the library through package.json's exports; anything else in the tarball is weight every
// install downloads, and a V8 code cache is made for the one Node build that packed it.

const { folder } = tempFolders(test);

interface Packed {
  entryCount: number;
  size: number;
  files: Array<{ path: string; size: number }>;
}
// --ignore-scripts: prepack would build again; the test runs on the build it was given.
const run = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: REPO, encoding: "utf8", env: testEnvironment() });
const packed = (JSON.parse(run.stdout) as Packed[])[0]!;
const paths = packed.files.map((f) => f.path);

test("the tarball holds no V8 code cache and none of tsc's CLI modules (the bin runs dist/bundle)", () => {
  assert.equal(
    paths.filter((p) => p.endsWith(".cache")),
    [],
  );
  assert.equal(
    paths.filter((p) => p.startsWith("dist/cli/")),
    [],
  );
  for (const bundle of ["main", "client", "hook", "occasional"]) assert.ok(paths.includes(`dist/bundle/${bundle}.cjs`), bundle);
  assert.ok(paths.includes("bin/ctxinject.js") && paths.includes("bin/import-module.cjs"));
});

test("every module of dist/ in the tarball is one the library's exports load, and every one they load is there", () => {
  const library = libraryFiles(REPO) as Set<string>;
  const shipped = paths.filter((p) => p.startsWith("dist/") && !p.startsWith("dist/bundle/"));
  assert.equal(
    shipped.filter((p) => !library.has(p)),
    [],
    "shipped, never loaded",
  );
  assert.equal([...library].filter((p) => !paths.includes(p)).sort(), [], "loaded, not shipped");
});

test("the packed files alone run: the bin builds a fixture and every export of the library loads", async () => {
  // The package as npm unpacks it, its dependencies beside it (this checkout's, linked).
  const dir = folder("packed");
  const home = join(dir, "node_modules/ctxinject");
  for (const path of paths) {
    mkdirSync(dirname(join(home, path)), { recursive: true });
    cpSync(join(REPO, path), join(home, path));
  }
  for (const dep of readdirSync(join(REPO, "node_modules")))
    if (!dep.startsWith(".")) symlinkSync(join(REPO, "node_modules", dep), join(dir, "node_modules", dep));
  const built = spawnSync(process.execPath, [join(home, "bin/ctxinject.js"), "build", "--root", join(FIXTURES, "first-run"), "--all"], {
    encoding: "utf8",
    env: testEnvironment({ XDG_CACHE_HOME: join(dir, "cache") }),
  });
  assert.is(built.status, 0, built.stderr);
  assert.match(built.stdout, "rules-injector");
  const pkg = JSON.parse(readFileSync(join(home, "package.json"), "utf8")) as { exports: Record<string, { import?: string }> };
  for (const [name, target] of Object.entries(pkg.exports)) {
    if (typeof target === "string" || target.import === undefined) continue;
    const loaded = (await import(pathToFileURL(join(home, target.import)).href)) as object;
    assert.ok(Object.keys(loaded).length > 0, name);
  }
});

const installScripts = spawnSync("npm", ["install-scripts", "ls"], { cwd: REPO, encoding: "utf8", env: testEnvironment() });
testUnless(
  /Unknown command/i.test(installScripts.stdout + installScripts.stderr) &&
    "this npm has no install-scripts command (before allowScripts it runs the script, silently)",
)("npm ci asks about no install script: esbuild's (dev only; its platform package carries the binary) is denied", () => {
  const ls = installScripts;
  assert.is(ls.status, 0, ls.stderr);
  assert.match(ls.stdout, "No packages with unreviewed install scripts");
});

test("the README states the tarball's size and file count as npm pack reports them (within a tenth)", () => {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const stated = /a (\d+) kB tarball of (\d+) files/.exec(readme);
  assert.ok(stated, "README's Install section: `a N kB tarball of N files`");
  const kb = packed.size / 1000;
  assert.ok(Math.abs(Number(stated[1]) - kb) <= kb / 10, `README says ${stated[1]} kB, npm pack says ${kb.toFixed(0)} kB`);
  assert.ok(Math.abs(Number(stated[2]) - packed.entryCount) <= packed.entryCount / 10, `README says ${stated[2]} files, npm pack says ${packed.entryCount}`);
});

test.run();
