import { dirname } from "node:path";
import { readBoundedText } from "./fs/bounded-read.js";
import { lazyRequire } from "./lazy-node.js";
import { findUp, under } from "./fs/paths.js";

type NodeUrl = typeof import("node:url");
type ModuleConstructor = (new (
  id: string,
  parent?: unknown,
) => { filename: string; paths: string[]; exports: unknown; require(id: string): unknown; _compile(text: string, file: string): void }) & {
  _nodeModulePaths(dir: string): string[];
  isBuiltin(id: string): boolean;
};

/**
 * Trust records the config's own text, so a config may load nothing else but Node's built-in modules: a helper it
 * required (`./helper.cjs`, a package from node_modules) could change after trust and run unasked. Hashing the files
 * it loads would need Node's whole resolution (extensions, `exports`, conditions, a path built at run time) and each
 * miss would be a silent hole; a refusal is one rule that names what to inline.
 */
const loadRefused = (id: string) =>
  new Error(`it loads "${id.slice(0, 60)}": a trusted config may load only Node's built-in modules (trust covers its own text only)`);

/**
 * Runs a trusted JavaScript config (io/config/trust.ts decided) and returns what it exports. `text` is what trust was checked
 * against.
 * - CommonJS (.cjs, or .js where the nearest package.json is not `"type": "module"`): the very text that was hashed
 *   is compiled as a module of its own, never taken from require's cache, so an edited file is what runs; its
 *   `require` takes Node's built-in modules only.
 * - An ES module: the very text that was hashed, imported as a `data:` URL through bin/import-module.cjs (the bundle
 *   has no import(): bin/ctxinject.js runs it from a code cache). Node resolves no relative or package specifier
 *   from a `data:` URL, so it too loads built-in modules only; an edited, re-trusted text is a new URL, so a
 *   long-lived process (the hook server) loads it instead of the one it loaded first.
 */
export async function runCodeConfig(file: string, text: string): Promise<unknown> {
  const url = lazyRequire<NodeUrl>("node:url");
  if (!isEsModule(file)) {
    const Module = lazyRequire<{ Module: ModuleConstructor }>("node:module").Module;
    const module = new Module(file);
    module.filename = file;
    module.paths = Module._nodeModulePaths(dirname(file));
    // The config's `require` calls its module's: only built-in modules come through.
    const builtin = module.require.bind(module);
    module.require = (id: string) => {
      if (!Module.isBuiltin(id)) throw loadRefused(id);
      return builtin(id);
    };
    module._compile(text, file);
    return unwrapDefault(module.exports);
  }
  const importer = lazyRequire<(url: string) => Promise<unknown>>(url.fileURLToPath(new URL("../../bin/import-module.cjs", import.meta.url)));
  try {
    return unwrapDefault(await importer(`data:text/javascript;base64,${Buffer.from(text).toString("base64")}`));
  } catch (error) {
    // Node names the data: URL, the whole config in base64: name the specifier instead.
    const refused = (error as NodeJS.ErrnoException).code === "ERR_UNSUPPORTED_RESOLVE_REQUEST" && /specifier "([^"]*)"/.exec((error as Error).message);
    throw refused ? loadRefused(refused[1]!) : error;
  }
}

function isEsModule(file: string): boolean {
  if (file.endsWith(".mjs")) return true;
  if (file.endsWith(".cjs")) return false;
  // .js: what Node would make of it, from the nearest package.json.
  let type: unknown;
  findUp(dirname(file), (dir) => {
    try {
      type = (JSON.parse(readBoundedText(under(dir, "package.json"))) as { type?: unknown }).type;
      return true;
    } catch (error) {
      // No package.json here: look further up. One that cannot be read or parsed decides as Node would (CommonJS).
      return (error as NodeJS.ErrnoException).code !== "ENOENT";
    }
  });
  return type === "module";
}

/** An ES module's namespace, or a CommonJS module compiled from ESM (`exports.default`): the config itself. */
function unwrapDefault(value: unknown): unknown {
  if (value && typeof value === "object" && "default" in value) return (value as { default: unknown }).default;
  return value;
}
