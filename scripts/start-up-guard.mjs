// An esbuild plugin that refuses, at bundle time, the code that breaks ctxinject's start-up only at run time.
// - import(): the bin runs the bundle from V8's code cache through vm.Script, which has no loader for a dynamic
//   import ("A dynamic import callback was not specified", and only when that line runs).
// - A static import of a heavy Node module: in the bundle every top-level import runs on every start, and these
//   bring the stream, net or crypto modules with them (milliseconds of every prompt).
// - A character outside ASCII in the output (esbuild keeps those of regular expressions as they are): V8 then holds
//   the whole bundle as a two-byte string, and every start reads and decodes it more slowly.
// All pass tsc and esbuild as they are; the messages say what to do instead.
import { existsSync, readFileSync } from "node:fs";
import { basename, relative, sep } from "node:path";
import { transformSync } from "esbuild";

/** Node modules the bundle may not import statically; `lazyRequire` (src/io/lazy-node.ts) loads them on first use. */
export const HEAVY_MODULES = [
  "fs/promises",
  "stream",
  "stream/promises",
  "readline",
  "child_process",
  "crypto",
  "os",
  "net",
  "tty",
  "http",
  "https",
  "http2",
  "zlib",
  "worker_threads",
  "v8",
  "inspector",
  "perf_hooks",
  "dns",
  "dgram",
  "tls",
];

const LAZY = "load it on first use with lazyRequire from src/io/lazy-node.ts (a plain require, which a code cache can run)";

/** Comments and string literals blanked out, so that only code is searched (line numbers kept). */
function codeOnly(text) {
  return text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\[\s\S]|[^\\`])*`/g, (literal) =>
    literal.replace(/[^\n]/g, " "),
  );
}

const IMPORT_CALL = /(?<![\w$.])import\s*\(/;

/** The lines of each `import(` in the code of a TypeScript file (types, comments and strings aside). */
export function dynamicImports(text) {
  // The JavaScript esbuild makes of it says whether there is one (`typeof import("node:tty")` is a type, not a
  // load); the source says where, skipping the `typeof import(` of types.
  if (!IMPORT_CALL.test(codeOnly(transformSync(text, { loader: "ts" }).code))) return [];
  const code = codeOnly(text);
  const lines = [];
  for (const match of code.matchAll(new RegExp(IMPORT_CALL, "g"))) {
    if (/typeof\s*$/.test(code.slice(Math.max(0, match.index - 12), match.index))) continue;
    lines.push(code.slice(0, match.index).split("\n").length);
  }
  return lines.length > 0 ? lines : [0];
}

export const startUpGuard = {
  name: "start-up-guard",
  setup(build) {
    const heavy = new RegExp(`^(node:)?(${HEAVY_MODULES.map((m) => m.replace("/", "\\/")).join("|")})$`);
    build.onResolve({ filter: heavy }, (args) => {
      // import() is reported below; the stand-ins this build writes itself (lazy-child-process) are the lazy load.
      if (args.kind === "dynamic-import" || args.namespace === "ctxinject") return undefined;
      return {
        errors: [
          { text: `${args.path} is imported statically by ${relative(process.cwd(), args.importer)}: in the bundle it would load on every start; ${LAZY}` },
        ],
      };
    });
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== "dynamic-import") return undefined;
      return {
        errors: [
          {
            text: `import("${args.path}") in ${relative(process.cwd(), args.importer)}: the bundle runs from a code cache, where import() fails at run time; ${LAZY}`,
          },
        ],
      };
    });
    build.onEnd((result) => {
      const outfile = build.initialOptions.outfile;
      const outputs = result.outputFiles?.map((f) => [f.path, f.text]) ?? (outfile && existsSync(outfile) ? [[outfile, readFileSync(outfile, "utf8")]] : []);
      const errors = [];
      for (const [path, text] of outputs) {
        const at = text.search(/[^\x00-\x7f]/);
        if (at === -1) continue;
        const near = text.slice(Math.max(0, at - 30), at + 10).replace(/\s+/g, " ");
        const escaped = `\\u${text.charCodeAt(at).toString(16).padStart(4, "0")}`;
        errors.push({
          text: `${relative(process.cwd(), path)}: ${JSON.stringify(text[at])} (near ${JSON.stringify(near)}) makes V8 hold the whole bundle as a two-byte string, slower to read on every start; write it as ${escaped} in the source`,
        });
      }
      return { errors };
    });
    // import() of a computed name never reaches onResolve: the project's own files are searched for it.
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
      const lines = dynamicImports(readFileSync(args.path, "utf8"));
      if (lines.length === 0) return undefined;
      const file = relative(process.cwd(), args.path);
      return {
        errors: lines.map((line) => ({
          text: `import() at ${file}${line > 0 ? `:${line}` : ""}: the bundle runs from a code cache, where import() fails at run time; ${LAZY}`,
        })),
      };
    });
  },
};

/**
 * Refuses `pattern`'s modules (paths relative to the project, with /) in a bundle: the occasional commands' code in
 * the CLI bundle, say, which one static import from the command tree would put back on every start without a word.
 * `instead` says where they belong.
 */
export function keptOut(pattern, instead) {
  return {
    name: "kept-out",
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
        const file = relative(process.cwd(), args.path).split(sep).join("/");
        if (!pattern.test(file)) return undefined;
        return { errors: [{ text: `${file} would be in ${basename(build.initialOptions.outfile ?? "the bundle")}, read and run at every start: ${instead}` }] };
      });
    },
  };
}
