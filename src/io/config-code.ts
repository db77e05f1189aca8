import { dirname } from "node:path";
import { readBoundedText } from "./bounded-read.js";
import { lazyRequire } from "./lazy-node.js";
import { findUp, under } from "./paths.js";

type NodeUrl = typeof import("node:url");
type ModuleConstructor = (new (id: string, parent?: unknown) => { filename: string; paths: string[]; exports: unknown; _compile(text: string, file: string): void }) & {
  _nodeModulePaths(dir: string): string[];
};

/**
 * Runs a trusted JavaScript config (io/trust.ts decided) and returns what it exports. `text` and `hash` are those
 * trust was checked against.
 * - CommonJS (.cjs, or .js where the nearest package.json is not `"type": "module"`): the very text that was hashed
 *   is compiled as a module of its own, never taken from require's cache, so an edited file is what runs.
 * - An ES module: imported by its file URL with the hash as the query, through bin/import-module.cjs (the bundle
 *   has no import(): bin/ctxinject.js runs it from a code cache). A long-lived process (the hook server) then loads
 *   an edited, re-trusted file as a new module instead of the one it loaded first. Node reads the file when it
 *   imports it: trust binds the text read just before.
 */
export async function runCodeConfig(file: string, text: string, hash: string): Promise<unknown> {
  const url = lazyRequire<NodeUrl>("node:url");
  if (!isEsModule(file)) {
    const Module = lazyRequire<{ Module: ModuleConstructor }>("node:module").Module;
    const module = new Module(file);
    module.filename = file;
    module.paths = Module._nodeModulePaths(dirname(file));
    module._compile(text, file);
    return unwrapDefault(module.exports);
  }
  const importer = lazyRequire<(url: string) => Promise<unknown>>(url.fileURLToPath(new URL("../../bin/import-module.cjs", import.meta.url)));
  return unwrapDefault(await importer(`${url.pathToFileURL(file).href}?sha256=${hash}`));
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
