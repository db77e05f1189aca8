// Bundles the CLI into dist/bundle/: one file for start-up, with every lazily imported module (config loader,
// tree walker, tokenizers, stemmer, commands) split into chunks that load only when used. The library keeps
// tsc's per-module output in dist/ with its types.
import { build } from "esbuild";

await build({
  entryPoints: { main: "src/cli/main.ts" },
  outdir: "dist/bundle",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "chunks/[name]-[hash]",
  // CommonJS dependencies call require() for Node built-ins; give the ESM bundle a real one.
  banner: { js: 'import { createRequire as __ctxinjectRequire } from "node:module"; const require = __ctxinjectRequire(import.meta.url);' },
  // Optional peers of cosmiconfig's loaders: present only if the user's config needs them.
  // cosmiconfig stays a real module: its loaders resolve config files relative to their own location.
  external: ["typescript", "esprima", "cosmiconfig"],
  legalComments: "none",
  logLevel: "warning",
});
