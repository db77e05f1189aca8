#!/usr/bin/env node
// Starts the bundled CLI from V8's code cache (made by scripts/bundle.mjs): without it every run first compiles
// the bundle and each function it calls, which costs as much as the work itself. A cache V8 rejects (another
// Node version, other flags) or one missing for this build of the bundle is ignored and the bundle compiles as usual.
// A script from a code cache has no module loader for import(): the bundle loads its lazy parts with require.
// CommonJS (bin/package.json): an ES module entry would start Node's ESM loader, which alone loads fs/promises
// and the stream modules.
"use strict";
const { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } = require("node:fs");
const { dirname, join } = require("node:path");
const vm = require("node:vm");

const dir = join(__dirname, "../dist/bundle");

/**
 * Runs one bundle of dist/bundle (its exports), from its code cache where V8 takes it. A bundle gets this function
 * (module.load) to load another the same way, and `shared`, what the bundle loading it hands over (module.shared).
 */
function load(name, shared) {
  const file = join(dir, `${name}.cjs`);
  let source;
  try {
    source = readFileSync(file, "utf8");
  } catch {
    process.stderr.write(`ctxinject: ${file} is missing; run npm run build\n`);
    process.exit(70);
  }

  // The bundle's last line names its build (scripts/bundle.mjs); the cache recorded for that build is used, no other.
  const build = /\/\/ ctxinject-build ([0-9a-f]+)\n$/.exec(source.slice(-64))?.[1];
  // A cache is only good for the Node that made it: its name says which, so another Node never tries one in vain
  // (a rejected cache costs a compile of its own). The shipped cache is made by the Node that built the package;
  // under another Node a cache of this user's own is made on the first run and used from the second on. (Node's
  // module.enableCompileCache, Node >= 22.1, was measured as a replacement and is no match: it keeps only the code
  // compiled before the bundle runs — 47 ms a build on Node 22.23 against 39 ms with this cache and 53 ms with none.)
  const cacheName = `${name}-${build}-${process.version}-${process.arch}.cache`;
  const shipped = build === undefined ? undefined : join(dir, cacheName);
  const ownCache = () => join(process.env.XDG_CACHE_HOME || join(process.env.HOME || require("node:os").homedir(), ".cache"), "ctxinject", cacheName);

  // Set by scripts/bundle.mjs only: each training run adds the functions it compiled to the shipped cache (of the
  // bundle it names, or of every bundle the run loads for "1").
  const train = process.env.CTXINJECT_WRITE_CODE_CACHE;
  const training = (train === "1" || train === name) && shipped !== undefined;
  const ownFirst = !training && build !== undefined;
  let cacheFile = shipped;
  let cachedData = readCache(shipped, false);
  if (cachedData === undefined && ownFirst) {
    cacheFile = ownCache();
    cachedData = readCache(cacheFile, true);
  }
  // The bundle is one function expression (scripts/bundle.mjs writes CommonJS's wrapper into it).
  let script = new vm.Script(source, { filename: file, cachedData });
  const rejected = cachedData !== undefined && script.cachedDataRejected;
  if (rejected && cacheFile === shipped && ownFirst) {
    // Rejected for another reason than the Node version (a V8 flag, a damaged file): the user's own cache, at the
    // price of a second compile, else one is made for the next run.
    cacheFile = ownCache();
    cachedData = readCache(cacheFile, true);
    if (cachedData !== undefined) script = new vm.Script(source, { filename: file, cachedData });
  }
  const used = cachedData !== undefined && !script.cachedDataRejected;
  const write = training ? shipped : used ? undefined : cacheFile;
  if (process.env.CTXINJECT_DEBUG && (rejected || cacheFile !== shipped)) {
    const why = rejected ? "V8 rejected the code cache" : "no code cache for this build of the bundle";
    process.stderr.write(`ctxinject: debug: ${why}; ${used ? `using ${cacheFile}` : `compiling ${file}, then writing ${write}`}\n`);
  }
  const cli = { exports: {}, load, shared };
  // Module.createRequire, which is node:module's createRequire without loading node:module (lib/module.js loads part of
  // the ES module loader).
  script.runInThisContext()(cli.exports, module.constructor.createRequire(file), cli, file, dir);

  // A run without a usable cache leaves one for the next; failing to write it only means the next compiles again.
  if (write !== undefined) {
    process.on("exit", () => {
      try {
        // The user's own: a folder and a file of this user's alone (see readCache), never written through a link
        // (the temp name is created, not opened) nor into another user's folder (`sudo -E` keeps their HOME).
        mkdirSync(dirname(write), { recursive: true, mode: 0o700 });
        if (write !== shipped && !ownedHere(lstatSync(dirname(write)))) throw new Error(`${dirname(write)} is not this user's`);
        const tmp = `${write}.${process.pid}.tmp`;
        try {
          unlinkSync(tmp);
        } catch {
          // none left by an earlier process of this pid
        }
        writeFileSync(tmp, script.createCachedData(), { mode: 0o600, flag: "wx" });
        renameSync(tmp, write);
        if (write !== shipped) keepNewest(dirname(write), name);
      } catch (error) {
        if (training || process.env.CTXINJECT_DEBUG) process.stderr.write(`ctxinject: debug: no code cache written: ${error.message}\n`);
      }
    });
  }
  return cli.exports;
}

/**
 * Each build under each Node leaves the user a cache of its own (about a megabyte): of a bundle's, the KEEP_OWN newest
 * stay, so a few versions used side by side (one per project) keep theirs and upgrades do not pile up. Run only after
 * writing one, never on a run that found its cache.
 */
const KEEP_OWN = 4;
function keepNewest(folder, name) {
  const caches = readdirSync(folder)
    .filter((file) => file.startsWith(`${name}-`) && file.endsWith(".cache"))
    .map((file) => ({ file, time: statSync(join(folder, file)).mtimeMs }))
    .sort((a, b) => b.time - a.time || (a.file < b.file ? -1 : 1));
  for (const { file } of caches.slice(KEEP_OWN)) unlinkSync(join(folder, file));
}

/**
 * A code cache's bytes. V8 runs what a cache holds as the bundle's compiled code, so the user's own (`own`) is read
 * only when it is this user's and no one else may write it: with `sudo -E` or `su` without `-`, HOME and
 * XDG_CACHE_HOME are another user's, who could otherwise hand root code of their own. (The shipped cache sits beside
 * the bundle: whoever can write it can write the bundle.)
 */
function readCache(path, own) {
  if (path === undefined) return undefined;
  let fd;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    return own && !ownedHere(fstatSync(fd)) ? undefined : readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** This user's, and writable by no one else (where there are uids). */
function ownedHere(info) {
  return typeof process.getuid !== "function" || (info.uid === process.getuid() && (info.mode & 0o022) === 0);
}

// `ctxinject hook <agent>` runs on every prompt and tool call: a small client hands it to the warm hook server
// (src/cli/hook-transport/client.ts), and only where that does not answer does the hook bundle run here, without the command tree.
if (process.argv.length === 4 && process.argv[2] === "hook") {
  const handover = load("client").run();
  if (handover !== undefined) load("hook").run(handover);
} else {
  load("main").run();
}
