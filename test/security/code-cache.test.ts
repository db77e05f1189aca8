import { test } from "uvu";
import * as assert from "uvu/assert";
import { testUnless } from "../helpers/lane.js";
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, cpSync, mkdirSync, readdirSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { cleanup, materialize, REPO } from "../helpers/cli.js";
import { tempFolders } from "../helpers/temp.js";

// Under a Node other than the one that built the package, the bin compiles the bundle and leaves the user a V8 code
// cache of their own in $XDG_CACHE_HOME/ctxinject, used from the second run on (issue 46). V8 runs what a cache holds
// as compiled code: a cache another user can write (`sudo -E` keeps that user's HOME) must never be run.

const { folder } = tempFolders(test);
test.after(cleanup);

/** An install without the caches made by the build, as under another Node: every bundle compiles at first. */
function installWithoutCaches(): string {
  const dir = folder("cache");
  cpSync(join(REPO, "bin"), join(dir, "bin"), { recursive: true });
  cpSync(join(REPO, "dist/bundle"), join(dir, "dist/bundle"), { recursive: true, filter: (src) => !src.endsWith(".cache") });
  cpSync(join(REPO, "package.json"), join(dir, "package.json"));
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"));
  return dir;
}

function build(install: string, root: string, cache: string) {
  return spawnSync(process.execPath, [join(install, "bin/ctxinject.js"), "build", "--files", "packages/api/src/handlers/user.ts"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", CTXINJECT_DEBUG: "1", XDG_CACHE_HOME: cache, CTXINJECT_STATE_DIR: folder("state") },
  });
}

const ownCacheOf = (cache: string) => {
  const names = readdirSync(join(cache, "ctxinject")).filter((name) => name.startsWith("main-") && name.endsWith(".cache"));
  assert.is(names.length, 1, `one cache of the CLI bundle: ${names.join(", ")}`);
  return join(cache, "ctxinject", names[0]!);
};

test("the first run under another Node leaves a cache of the user's alone (0600 in a 0700 folder), which the second run uses", () => {
  const install = installWithoutCaches();
  const root = materialize("monorepo");
  const cache = folder("cache");
  const first = build(install, root, cache);
  assert.is(first.status, 0, first.stderr);
  assert.match(first.stderr, "then writing");
  const file = ownCacheOf(cache);
  assert.is(statSync(file).mode & 0o777, 0o600);
  assert.is(statSync(join(cache, "ctxinject")).mode & 0o777, 0o700);
  const second = build(install, root, cache);
  assert.is(second.stdout, first.stdout);
  assert.match(second.stderr, `using ${file}`);
  assert.equal(
    readdirSync(join(cache, "ctxinject")).filter((name) => name.endsWith(".tmp")),
    [],
    "no temp file left",
  );
});

test("a code cache in the user's cache folder that others may write is not run, and is replaced by one of the user's alone", () => {
  const install = installWithoutCaches();
  const root = materialize("monorepo");
  const cache = folder("cache");
  build(install, root, cache);
  const file = ownCacheOf(cache);
  chmodSync(file, 0o666);
  const run = build(install, root, cache);
  assert.is(run.status, 0, run.stderr);
  assert.not.match(run.stderr, `using ${file}`);
  assert.match(run.stderr, `compiling`);
  assert.is(statSync(file).mode & 0o777, 0o600, "rewritten as the user's alone");
  assert.match(build(install, root, cache).stderr, `using ${file}`);
});

const root = process.getuid?.() === 0;

testUnless(!root && "chown needs root")("a code cache another user owns (HOME kept by sudo -E) is not run", () => {
  const install = installWithoutCaches();
  const project = materialize("monorepo");
  const cache = folder("cache");
  build(install, project, cache);
  const file = ownCacheOf(cache);
  chownSync(file, 65534, 65534);
  const run = build(install, project, cache);
  assert.is(run.status, 0, run.stderr);
  assert.not.match(run.stderr, `using ${file}`);
  // The folder is another user's too: nothing is written into it.
  const theirs = join(folder("theirs"), "theirs");
  mkdirSync(join(theirs, "ctxinject"), { recursive: true });
  chownSync(join(theirs, "ctxinject"), 65534, 65534);
  const inTheirs = build(install, project, theirs);
  assert.is(inTheirs.status, 0, inTheirs.stderr);
  assert.match(inTheirs.stderr, "is not this user's");
  assert.equal(readdirSync(join(theirs, "ctxinject")), []);
});

test.run();
