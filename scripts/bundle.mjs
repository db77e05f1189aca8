// Bundles the CLI into dist/bundle/main.cjs and the hooks into dist/bundle/hook.cjs, and records V8's code cache
// for each (<name>-<build>-<node version>-<arch>.cache, as bin/ctxinject.js names it).
// Compiling the bundle and then each function on first call cost a start-up about as long as the work itself;
// the bin hands the cache to vm.Script, so a run starts from bytecode. CommonJS because Node 20 has no code
// cache for ES modules. Heavy modules stay outside: the BPE tables (gpt-tokenizer) load only when asked for.
// The library keeps tsc's per-module output in dist/ with its types.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { keptOut, startUpGuard } from "./start-up-guard.mjs";

const OUT = "dist/bundle";

// commander requires node:child_process at load for executable subcommands, which ctxinject does not have; that
// require alone (child_process brings net, dgram and streams) is a few milliseconds of every start. Commander
// gets a stand-in that loads the real module on first use.
const lazyChildProcess = {
  name: "lazy-child-process",
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer) ? { path: "lazy-child-process", namespace: "ctxinject" } : undefined,
    );
    build.onLoad({ filter: /^lazy-child-process$/, namespace: "ctxinject" }, () => ({
      contents: 'let real; module.exports = new Proxy({}, { get: (_, key) => (real ??= require("node:child_process"))[key] });',
      loader: "js",
    }));
  },
};
// node:module (lib/module.js, which loads part of the ES module loader) only gives our code createRequire, called
// with the bundle's own URL: in the bundle that is the require bin/ctxinject.js hands it, made for the same file.
// An ES module, so that the bundle links to it directly instead of copying a CommonJS module's exports at start.
const bundleRequire = {
  name: "bundle-require",
  setup(build) {
    build.onResolve({ filter: /^(node:)?module$/ }, (args) =>
      /[\\/]src[\\/]/.test(args.importer) && !/[\\/]node_modules[\\/]/.test(args.importer) ? { path: "bundle-require", namespace: "ctxinject" } : undefined,
    );
    build.onLoad({ filter: /^bundle-require$/, namespace: "ctxinject" }, () => ({ contents: "export const createRequire = () => require;", loader: "js" }));
  },
};
// The CommonJS packages src/ imports get a stand-in written as an ES module that takes
// the package with require (bundled all the same): a default import of CommonJS makes the bundle copy every
// export onto a wrapper object at each start (picomatch's ~20, imported twice: ~0.2 ms), a re-export does not.
// - ignore builds its pattern tables when it loads (~14 KB of module code), yet a run reuses the answers an
//   earlier run saved (core/warm.ts) and compiles .gitignore patterns only for a path no run has asked about: its
//   stand-in loads it on its first call.
// - commander's index.js also makes a Command (its global `program`, which ctxinject never uses) at load: its
//   stand-in takes the classes from the files that define them.
const STAND_INS = {
  ignore: (real) => `let real; export default (...args) => (real ??= require(${real}))(...args);`,
  picomatch: (real) => `export default require(${real});`,
  commander: (real) => {
    const lib = (file) => JSON.stringify(join(JSON.parse(real), "lib", file));
    return `export const { Command } = require(${lib("command.js")}); export const { Option } = require(${lib("option.js")}); export const { CommanderError, InvalidArgumentError } = require(${lib("error.js")});`;
  },
};
const standIns = {
  name: "stand-ins",
  setup(build) {
    build.onResolve({ filter: /^(ignore|picomatch|commander)$/ }, (args) =>
      /[\\/]src[\\/]/.test(args.importer) && !/[\\/]node_modules[\\/]/.test(args.importer) ? { path: args.path, namespace: "ctxinject-stand-in" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "ctxinject-stand-in" }, (args) => ({
      contents: STAND_INS[args.path](JSON.stringify(resolve("node_modules", args.path))),
      loader: "js",
      resolveDir: resolve("."),
    }));
  },
};
// node:fs and node:path: esbuild writes a require() of a builtin for every module that imports it (47 in the main
// bundle), each a trip through Node's module loader at start (~0.2 ms in all). src/ gets one module per builtin
// that requires it once and holds the names src/ imports from it (a name missing here fails the build). A module
// importing a getter (fs.promises, which loads fs/promises when read) keeps its own require: reading it up front
// would cost ~1.4 ms.
const SHARED_BUILTINS = ["fs", "path"];
const namesImported = (text, builtin) =>
  [...text.matchAll(new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*"(?:node:)?${builtin}"`, "g"))].flatMap(([, list]) =>
    list
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item !== "" && !item.startsWith("type "))
      .map((item) => item.split(/\s+as\s+/)[0]),
  );
const isGetter = (builtin, name) => Object.getOwnPropertyDescriptor(createRequire(import.meta.url)(`node:${builtin}`), name)?.get !== undefined;
// Only a module that takes the builtin by names alone: a namespace or default import would need every export.
const sharable = (text, builtin) =>
  namesImported(text, builtin).every((name) => !isGetter(builtin, name)) &&
  [...text.matchAll(new RegExp(`\\bfrom\\s*"(?:node:)?${builtin}"`, "g"))].length ===
    [...text.matchAll(new RegExp(`import\\s*\\{[^}]*\\}\\s*from\\s*"(?:node:)?${builtin}"`, "g"))].length;
function sharedNames(builtin) {
  const names = new Set();
  for (const file of readdirSync("src", { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".ts"))) {
    const text = readFileSync(join("src", file), "utf8");
    if (sharable(text, builtin)) for (const name of namesImported(text, builtin)) names.add(name);
  }
  return [...names].sort();
}
const sharedBuiltins = {
  name: "shared-builtins",
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(node:)?(${SHARED_BUILTINS.join("|")})$`) }, (args) => {
      const builtin = args.path.replace(/^node:/, "");
      if (!/[\\/]src[\\/]/.test(args.importer) || /[\\/]node_modules[\\/]/.test(args.importer)) return undefined;
      return sharable(readFileSync(args.importer, "utf8"), builtin) ? { path: builtin, namespace: "ctxinject-builtin" } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: "ctxinject-builtin" }, (args) => ({
      contents: `export const { ${sharedNames(args.path).join(", ")} } = require("node:${args.path}");`,
      loader: "js",
    }));
  },
};
// The commands a prompt never runs (src/cli/commands/occasional.ts: init, doctor, coverage, mcp, trust) are a bundle
// of their own, occasional.cjs: about a fifth of the CLI bundle that a build, a hook or the hook server would
// otherwise read, deserialise and initialise at every start. The CLI bundle gets a stand-in that loads it through the
// bin (module.load: from its own code cache) on the first call, and hands it the CLI bundle's core/errors module, so
// that a CtxinjectError thrown there is the class main.ts catches (one identity across the two bundles).
const OCCASIONAL = "src/cli/commands/occasional.ts";
const OCCASIONAL_ONLY =
  /^src\/(cli\/commands\/(init|doctor|coverage|mcp|trust)\.ts|core\/coverage\/|core\/doctor\/index\.ts|io\/(trees|host-setup)\/|integrations\/mcp-server\.ts)/;
const ERRORS = resolve("src/core/errors.ts");
const exportedNames = (file, pattern) => [...readFileSync(file, "utf8").matchAll(pattern)].map((m) => m[1]);
const occasionalStandIn = {
  name: "occasional-stand-in",
  setup(build) {
    build.onResolve({ filter: /[\\/]commands[\\/]occasional\.js$/ }, (args) =>
      /[\\/]src[\\/]cli[\\/]/.test(args.importer) ? { path: resolve(OCCASIONAL), namespace: "ctxinject-occasional" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "ctxinject-occasional" }, (args) => {
      const names = exportedNames(args.path, /export\s*\{\s*(\w+)\s*\}\s*from/g);
      return {
        contents: [
          `import * as errors from ${JSON.stringify(ERRORS)};`,
          "let loaded;",
          'const commands = () => (loaded ??= __ctxinject.load("occasional", { errors }));',
          ...names.map((name) => `export const ${name} = (...args) => commands().${name}(...args);`),
        ].join("\n"),
        loader: "js",
        resolveDir: resolve("src/cli"),
      };
    });
  },
};
// In occasional.cjs, core/errors is the CLI bundle's (handed over as module.shared), never a copy of its own.
const sharedErrors = {
  name: "shared-errors",
  setup(build) {
    build.onResolve({ filter: /[\\/]errors\.js$/ }, (args) =>
      resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts")) === ERRORS ? { path: ERRORS, namespace: "ctxinject-shared" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "ctxinject-shared" }, (args) => ({
      contents: `export const { ${exportedNames(args.path, /export\s+(?:const|class|function)\s+(\w+)/g).join(", ")} } = __ctxinject.shared.errors;`,
      loader: "js",
    }));
  },
};
rmSync(OUT, { recursive: true, force: true });

// What made the data src/io/warm-cache.ts saves: this build of ctxinject (its version and a digest of its sources:
// frontmatter read, gated and redacted by older code must not be reused after an upgrade or a fix), picomatch (the
// globs) and stemmer (the stems). Data saved by any other is not used.
const versionOf = (name) => JSON.parse(readFileSync(`node_modules/${name}/package.json`, "utf8")).version;
const sourcesDigest = () => {
  const hash = createHash("sha256");
  const files = readdirSync("src", { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? e.path, e.name).replaceAll("\\", "/"))
    .sort();
  for (const file of files) hash.update(`${file}\0`).update(readFileSync(file)).update("\0");
  return hash.digest("hex").slice(0, 12);
};
const ownVersion = JSON.parse(readFileSync("package.json", "utf8")).version;
const WARM_KEY = `ctxinject@${ownVersion}+${sourcesDigest()} picomatch@${versionOf("picomatch")} stemmer@${versionOf("stemmer")}`;

// The cache holds bytecode for every function its training runs call: the paths taken on every prompt, and
// `build --all` (a git hook's or CI's run: reading the index, thousands of files; ~10 ms less on the benchmark's
// large tree, 9 KB more cache). Each run starts from the cache the one before wrote and adds what it compiled.
// Functions no run calls compile on first use, as without a cache.
const state = mkdtempSync(join(tmpdir(), "ctxinject-training-"));
const root = resolve("fixtures/monorepo");
const prompt = "ulw fix the retry in packages/api/src/handlers/user.ts";
const event = (fields) => JSON.stringify({ session_id: "training", cwd: root, ...fields });
// The hosts as tsc wrote them into dist/ just before this script (npm run build): their sample events.
const { COMMAND_HOOK_HOSTS } = await import(pathToFileURL(resolve("dist/hosts/index.js")).href);
const trainingPlace = { root, file: "packages/api/src/handlers/user.ts", prompt };
const BUNDLES = [
  {
    // Every command but the hooks.
    name: "main",
    entry: "src/cli/main.ts",
    // What only the occasional commands use stays out (imported from the command tree, it would load on every start).
    plugins: [occasionalStandIn, keptOut(OCCASIONAL_ONLY, "import it through src/cli/commands/occasional.ts (occasional.cjs)")],
    runs: [
      { args: ["build", "--root", root, "--files", "packages/web/src/components/Button.tsx"], input: `${prompt}\n` },
      { args: ["build", "--root", root, "--all"], input: "" },
    ],
  },
  {
    // The commands a prompt never runs, loaded by the CLI bundle when one runs (occasionalStandIn above).
    name: "occasional",
    entry: OCCASIONAL,
    plugins: [sharedErrors],
    runs: [
      { args: ["doctor", "--root", root, "--fail-on", "none"], input: "" },
      { args: ["coverage", "--root", root, "--format", "json"], input: "" },
    ],
  },
  {
    // `ctxinject hook <agent>` alone (bin/ctxinject.js picks it): hosts run it on every prompt and tool call, and a
    // smaller bundle without the command tree deserialises and starts faster.
    name: "hook",
    entry: "src/cli/hook-main.ts",
    // Every host's sample events (Host.samples in src/hosts/, each session its own): their event readers, settings
    // readers and answer shapes are cached too, not compiled on each of their calls.
    runs: COMMAND_HOOK_HOSTS.flatMap((host) =>
      (host.samples ?? []).map((sample) => ({
        args: ["hook", host.short],
        input: event({ session_id: `training-${host.short}`, ...sample.event(trainingPlace) }),
      })),
    ),
  },
];

/** The bundle at `bundleFile`, with the build line appended; returns the build. */
async function bundle(entry, bundleFile, define = {}, extraPlugins = []) {
  await build({
    entryPoints: [entry],
    outfile: bundleFile,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    // import.meta.url made when first read: parsing the path into a URL costs ~0.3 ms that most runs never need.
    define: { "import.meta.url": "__ctxinject.url", CTXINJECT_WARM_KEY: JSON.stringify(WARM_KEY), ...define },
    // The file is the function the bin calls (CommonJS's wrapper, written here so the bin hands V8 the text as read
    // instead of a 400 KB copy glued to a wrapper). "use strict" first in it: the banner would otherwise turn
    // esbuild's own directive into a plain string, and the bundle (strict as ES modules) would run sloppy.
    // __ctxinject.load and .shared: what bin/ctxinject.js hands a bundle to load another (occasional.cjs) and what it
    // is handed by the bundle that loads it.
    banner: {
      js: '(function (exports, require, module, __filename, __dirname) {"use strict";\nconst __ctxinject = { get url() { return require("node:url").pathToFileURL(__filename).href; }, load: module.load, shared: module.shared };',
    },
    footer: { js: "})" },
    // bin/import-module.cjs (a trusted ES module config's import()) is required by its path at run time, never bundled.
    external: ["gpt-tokenizer", "gpt-tokenizer/*"],
    legalComments: "none",
    // Without whitespace the file is a third smaller, and every start reads it (with its code cache: 1.83 →
    // 1.36 ms on the benchmark machine). Names stay, for profiles and stack traces.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: "warning",
    // lazyChildProcess first: commander's child_process is the one heavy import that is made lazy here.
    plugins: [...extraPlugins, lazyChildProcess, bundleRequire, standIns, sharedBuiltins, startUpGuard],
  });

  // The bundle's last line names its build: a hash of the rest. The bin looks for the cache of that build only, so
  // a cache never meets another bundle (file times cannot tell: npm stamps files with the time it unpacked them).
  const buildId = createHash("sha256").update(readFileSync(bundleFile)).digest("hex").slice(0, 16);
  appendFileSync(bundleFile, `// ctxinject-build ${buildId}\n`);
  return buildId;
}

const cacheOf = (name, buildId) => `${OUT}/${name}-${buildId}-${process.version}-${process.arch}.cache`;
const ctxinject = (args, input, env) =>
  spawnSync(process.execPath, [resolve("bin/ctxinject.js"), ...args], {
    cwd: root,
    input,
    encoding: "utf8",
    // Training runs answer in their own process (a hook server would keep the hook bundle's code out of its cache).
    env: { ...process.env, NO_COLOR: "1", CTXINJECT_STATE_DIR: state, CTXINJECT_HOOK_SERVER: "0", ...env },
  });

function train({ name, runs }, buildId) {
  // Warm runs first, with no code cache written (HOME and the cache folder in the training state, so the bin's own
  // cache for this build lands there): they save what core/warm.ts keeps (compiled globs, stems, frontmatter
  // readings, ignore answers). The training runs after them then take the path of every run but a project's first,
  // and the functions only a first run needs (picomatch's and ignore's parsers, the stemmer) stay out of the cache:
  // every run deserialises all of it.
  for (const run of runs)
    ctxinject(run.args, run.input.replace(/"session_id":"([^"]*)"/, '"session_id":"$1-warm"'), { HOME: state, XDG_CACHE_HOME: join(state, "cache") });
  for (const run of runs) {
    // This bundle's cache only: a doctor run also starts the CLI bundle, whose cache holds the paths of every prompt.
    const training = ctxinject(run.args, run.input, { CTXINJECT_WRITE_CODE_CACHE: name });
    if (!trained(name, buildId, run.args, training)) break;
  }
}

/** Whether a training run went well; else the bundle goes without a cache (it works, only slower to start). */
function trained(name, buildId, args, run) {
  if (run.status === 0) return true;
  // The tests check that a build records one.
  process.stderr.write(`bundle: warning: no code cache for ${name}.cjs (ctxinject ${args.join(" ")} exited ${run.status}):\n${run.stderr}`);
  rmSync(cacheOf(name, buildId), { force: true });
  return false;
}

/**
 * The hook client (src/cli/hook-transport/client.ts), which every `ctxinject hook` runs first: it knows the main bundle's
 * build, whose server answers. Its cache is trained on calls a server answers: one started for the training in a
 * spool of its own, and stopped after.
 */
async function trainClient(buildId) {
  const run = join(state, "run");
  mkdirSync(run, { mode: 0o700 });
  const env = { CTXINJECT_HOOK_SERVER: "1", XDG_RUNTIME_DIR: run, CTXINJECT_HOOK_SERVER_IDLE_MS: "20000" };
  const args = ["hook", "claude"];
  const input = event({ hook_event_name: "UserPromptSubmit", prompt });
  // The first call starts the server and answers itself (its own caches in the training state).
  ctxinject(args, input, { ...env, HOME: state, XDG_CACHE_HOME: join(state, "cache") });
  // Its lock, wherever in the spool the server keeps it (src/io/hook-transport/spool.ts lays the spool out).
  const findLock = () =>
    readdirSync(run, { recursive: true })
      .map(String)
      .find((name) => name.endsWith("server.pid"));
  let lock = findLock();
  for (let waited = 0; lock === undefined && waited < 5000; waited += 50) {
    await new Promise((r) => setTimeout(r, 50));
    lock = findLock();
  }
  try {
    for (const session of ["training-client", "training-client-2"]) {
      const training = ctxinject(args, input.replace('"training"', JSON.stringify(session)), { ...env, CTXINJECT_WRITE_CODE_CACHE: "1", CTXINJECT_DEBUG: "1" });
      if (!trained("client", buildId, args, training)) break;
      if (!training.stderr.includes("answered by the hook server"))
        process.stderr.write(`bundle: warning: the client's training call was not answered by a server:\n${training.stderr}`);
    }
  } finally {
    if (lock !== undefined && existsSync(join(run, lock))) process.kill(Number(readFileSync(join(run, lock), "utf8")));
  }
}

try {
  const builds = [];
  for (const spec of BUNDLES) builds.push(await bundle(spec.entry, `${OUT}/${spec.name}.cjs`, {}, spec.plugins));
  const clientBuild = await bundle("src/cli/hook-transport/client.ts", `${OUT}/client.cjs`, { CTXINJECT_SERVER_BUILD: JSON.stringify(builds[0]) });
  BUNDLES.forEach((spec, i) => train(spec, builds[i]));
  await trainClient(clientBuild);
} finally {
  rmSync(state, { recursive: true, force: true });
}
