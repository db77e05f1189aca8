import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { readJsonToMerge, writeIfChanged } from "./out-file.js";
import { realOrSelf } from "./paths.js";

/** Where opencode looks for project plugins (it also reads `.opencode/plugin/`). */
export const OPENCODE_PLUGIN_FILE = ".opencode/plugins/ctxinject.js";

/** The package opencode installs into `.opencode` at every start when it is not there yet. */
const PLUGIN_PACKAGE = "@opencode-ai/plugin";

/**
 * The plugin file: a loader that finds ctxinject (the project's own install, else the copy that wrote the file)
 * and says so in opencode's log and on stderr when it cannot, instead of failing silently.
 */
export function opencodePluginSource(self: string): string {
  const fallback = pathToFileURL(resolve(dirname(realOrSelf(self)), "../dist/integrations/opencode.js")).href;
  return `// Written by \`ctxinject init --opencode\`; run it again to refresh. Loads ctxinject's opencode plugin from the
// project's own install, else from the ctxinject that wrote this file.
const tried = [];
let plugin;
for (const from of ["ctxinject/opencode", ${JSON.stringify(fallback)}]) {
  try {
    plugin = (await import(from)).CtxinjectPlugin;
    break;
  } catch (error) {
    tried.push(\`\${from}: \${error?.message ?? error}\`);
  }
}

export const CtxinjectPlugin =
  plugin ??
  (async ({ client }) => {
    const message = \`ctxinject: the opencode plugin could not be loaded, so no rules are injected (\${tried.join("; ")}). Install ctxinject in the project (npm install --save-dev ctxinject) or run \\\`ctxinject init --opencode\\\` again.\`;
    console.error(message);
    await client.app.log({ body: { service: "ctxinject", level: "error", message } }).catch(() => {});
    return {};
  });
`;
}

/** Writes the plugin file; returns whether it changed. */
export async function writeOpencodePlugin(root: string, self: string): Promise<boolean> {
  return writeIfChanged(join(root, OPENCODE_PLUGIN_FILE), opencodePluginSource(self));
}

/**
 * `.opencode/package.json` with opencode's plugin package, so that opencode finds its dependencies installed and
 * does not try the network at start (offline it waits about 70 s per folder before going on). Other keys stay.
 */
export async function writeOpencodePackage(root: string, version: string): Promise<boolean> {
  const file = join(root, ".opencode/package.json");
  const manifest = await readJsonToMerge(file);
  const dependencies = { ...((manifest.dependencies ?? {}) as Record<string, string>) };
  dependencies[PLUGIN_PACKAGE] ??= version;
  return writeIfChanged(file, `${JSON.stringify({ ...manifest, dependencies }, null, 2)}\n`);
}

/**
 * What opencode checks before it installs: a node_modules folder, and every dependency of package.json named in
 * package-lock.json. Null when that holds, else what is missing.
 */
export async function opencodeDependenciesMissing(root: string): Promise<string | null> {
  const dir = join(root, ".opencode");
  if (!existsSync(join(dir, "node_modules"))) return ".opencode/node_modules";
  const read = (name: string) => readJsonToMerge(join(dir, name));
  const manifest = await read("package.json");
  const lock = (((await read("package-lock.json")).packages ?? {}) as Record<string, { dependencies?: Record<string, string> }>)[""]?.dependencies ?? {};
  const wanted = Object.keys((manifest.dependencies ?? {}) as Record<string, string>);
  const missing = wanted.filter((name) => !(name in lock));
  return missing.length > 0 ? `${missing.join(", ")} in .opencode/package-lock.json` : null;
}
