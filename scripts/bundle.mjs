// Bundles the CLI into dist/bundle/main.cjs and records V8's code cache for it (main.cjs.cache).
// Compiling the bundle and then each function on first call cost a start-up about as long as the work itself;
// the bin hands the cache to vm.Script, so a run starts from bytecode. CommonJS because Node 20 has no code
// cache for ES modules. Heavy modules stay outside: the BPE tables (gpt-tokenizer) and cosmiconfig load only
// when asked for. The library keeps tsc's per-module output in dist/ with its types.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { build } from "esbuild";

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
    build.onLoad({ filter: /.*/, namespace: "ctxinject" }, () => ({
      contents: 'let real; module.exports = new Proxy({}, { get: (_, key) => (real ??= require("node:child_process"))[key] });',
      loader: "js",
    }));
  },
};
rmSync(OUT, { recursive: true, force: true });

await build({
  entryPoints: ["src/cli/main.ts"],
  outfile: `${OUT}/main.cjs`,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  define: { "import.meta.url": "__ctxinjectUrl" },
  // "use strict" first: the banner would otherwise turn esbuild's own directive into a plain string, and the
  // bundle (strict as ES modules) would run sloppy.
  banner: { js: '"use strict";\nconst __ctxinjectUrl = require("node:url").pathToFileURL(__filename).href;' },
  // typescript and esprima: optional peers of cosmiconfig's loaders, present only if a config needs them.
  // cosmiconfig stays a real module: its loaders resolve config files relative to their own location.
  external: ["typescript", "esprima", "cosmiconfig", "gpt-tokenizer", "gpt-tokenizer/*"],
  legalComments: "none",
  logLevel: "warning",
  plugins: [lazyChildProcess],
});

// The cache holds bytecode for every function this run calls: a build with a prompt and a target, the path a
// hook takes on every prompt. Functions it never calls compile on first use, as without a cache.
const training = spawnSync(
  process.execPath,
  ["bin/ctxinject.js", "build", "--root", "fixtures/monorepo", "--files", "packages/web/src/components/Button.tsx", "--format", "markdown"],
  { input: "ulw fix the retry in packages/api/src/handlers/user.ts\n", encoding: "utf8", env: { ...process.env, CTXINJECT_WRITE_CODE_CACHE: "1", NO_COLOR: "1" } },
);
if (training.status !== 0) {
  process.stderr.write(`bundle: the run that records the code cache failed (exit ${training.status}):\n${training.stderr}`);
  process.exit(1);
}
