#!/usr/bin/env node
// Starts the bundled CLI from V8's code cache (made by scripts/bundle.mjs): without it every run first compiles
// the bundle and each function it calls, which costs as much as the work itself. A cache V8 rejects (another
// Node version, other flags) or one missing for this build of the bundle is ignored and the bundle compiles as usual.
// A script from a code cache has no module loader for import(): the bundle loads its lazy parts with require.
// CommonJS (bin/package.json): an ES module entry would start Node's ESM loader, which alone loads fs/promises
// and the stream modules.
"use strict";
const { readFileSync, renameSync, writeFileSync } = require("node:fs");
const { createRequire } = require("node:module");
const { join } = require("node:path");
const vm = require("node:vm");

const dir = join(__dirname, "../dist/bundle");
// `ctxinject hook <agent>` runs on every prompt and tool call: its own bundle, without the command tree.
const name = process.argv.length === 4 && process.argv[2] === "hook" ? "hook" : "main";
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
const cacheFile = build === undefined ? undefined : join(dir, `${name}-${build}.cache`);

function readCache() {
  try {
    return cacheFile === undefined ? undefined : readFileSync(cacheFile);
  } catch {
    return undefined;
  }
}

const cachedData = readCache();
// The bundle is one function expression (scripts/bundle.mjs writes CommonJS's wrapper into it).
const script = new vm.Script(source, { filename: file, cachedData });
if (process.env.CTXINJECT_DEBUG && (cachedData === undefined || script.cachedDataRejected)) {
  process.stderr.write(`ctxinject: debug: ${cachedData ? "V8 rejected the code cache" : "no code cache for this build of the bundle"}; compiling ${file}\n`);
}
const cli = { exports: {} };
script.runInThisContext()(cli.exports, createRequire(file), cli, file, dir);

// Set by scripts/bundle.mjs only: each training run adds the functions it compiled to what the cache held.
if (process.env.CTXINJECT_WRITE_CODE_CACHE && cacheFile !== undefined) {
  process.on("exit", () => {
    writeFileSync(`${cacheFile}.tmp`, script.createCachedData());
    renameSync(`${cacheFile}.tmp`, cacheFile);
  });
}
cli.exports.run();
