import { existsSync } from "node:fs";
import { join } from "node:path";
import { readJsonObject, readJsonToMerge, writeIfChanged } from "../fs/out-file.js";
import type { WriteTarget } from "../fs/confine.js";

import type { PluginInstall } from "../../hosts/host.js";

/**
 * The plugin file: a loader that finds ctxinject (the project's own install, else the one on PATH) and says so in
 * opencode's log and on stderr when it cannot, instead of failing silently. A team commits this file, so it names
 * no path of the machine that wrote it: the copy on PATH is found where the plugin runs, through its bin's link
 * (npm links bin/ctxinject.js) or, where npm writes a shim instead (Windows), the package beside the shim.
 *
 * The user's loader (`pinned`: the file URL of this ctxinject's plugin module) runs in every project, so it loads
 * that one file: nothing looked up where a project could answer (a relative folder on PATH, say).
 */
export function opencodePluginSource(entry = "opencode", pinned?: string): string {
  const from = pinned === undefined ? " the\n// project's own install, else from the ctxinject on PATH" : `\n// ${pinned.replace(/[\r\n]/g, " ")}`;
  const fix =
    pinned === undefined
      ? "Install ctxinject in the project (npm install --save-dev ctxinject) or put it on PATH"
      : `Run \\\`ctxinject init --${entry} --user\\\` again from the ctxinject you use`;
  const first = pinned === undefined ? `(await load("ctxinject/${entry}")) ?? (await fromPath())` : `await load(${JSON.stringify(pinned)})`;
  return `// Written by \`ctxinject init --${entry}\`; run it again to refresh. Loads ctxinject's ${entry} plugin from${from}.
import { existsSync, realpathSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

function onPath() {
  for (const dir of (process.env.PATH ?? process.env.Path ?? "").split(delimiter)) {
    if (dir === "") continue;
    const bin = join(dir, "ctxinject");
    const found = [join(dir, "node_modules/ctxinject/dist/integrations/${entry}.js")];
    try {
      found.unshift(join(dirname(realpathSync(bin)), "../dist/integrations/${entry}.js"));
    } catch {}
    const plugin = found.find((file) => existsSync(file));
    if (plugin) return pathToFileURL(plugin).href;
  }
  return null;
}

const tried = [];
async function load(from) {
  try {
    return (await import(from)).CtxinjectPlugin;
  } catch (error) {
    tried.push(\`\${from}: \${error?.message ?? error}\`);
  }
}
const fromPath = async () => {
  const found = onPath();
  if (found) return load(found);
  tried.push("no ctxinject on PATH");
};
const plugin = ${first};

export const CtxinjectPlugin =
  plugin ??
  (async ({ client }) => {
    const message = \`ctxinject: the ${entry} plugin could not be loaded, so no rules are injected (\${tried.join("; ")}). ${fix}.\`;
    console.error(message);
    await client.app.log({ body: { service: "ctxinject", level: "error", message } }).catch(() => {});
    return {};
  });
`;
}

/**
 * A file in the host's config folder (the project's or the user's): `fileIn(name)` makes its write target
 * (io/fs/confine.ts), a project's checked for links on its way.
 */
export type FileIn = (name: string) => WriteTarget;

/** Writes the plugin file into the config folder (the user's loader names `pinned`); returns whether it changed. */
export function writePluginLoader(fileIn: FileIn, install: PluginInstall, pinned?: string): boolean {
  return writeIfChanged(fileIn(install.file), opencodePluginSource(install.entry, pinned));
}

/**
 * `package.json` in the config folder with the host's plugin package, so that the host finds its dependencies
 * installed and does not try the network at start (offline opencode waits about 70 s per folder before going on,
 * Kilo as long). Other keys stay.
 */
export function writePluginPackage(fileIn: FileIn, install: PluginInstall): boolean {
  const file = fileIn("package.json");
  const manifest = readJsonToMerge(file);
  const dependencies = { ...((manifest.dependencies ?? {}) as Record<string, string>) };
  dependencies[install.package.name] ??= install.package.version;
  return writeIfChanged(file, `${JSON.stringify({ ...manifest, dependencies }, null, 2)}\n`);
}

/**
 * What the host checks before it installs: a node_modules folder, and every dependency of package.json named in
 * package-lock.json. Null when that holds, else what is missing (named relative to `shown`).
 */
export function pluginDependenciesMissing(dir: string, fileIn: FileIn, shown: string): string | null {
  if (!existsSync(join(dir, "node_modules"))) return `${shown}/node_modules`;
  const read = (name: string) => readJsonObject(fileIn(name));
  const manifest = read("package.json") ?? {};
  const lock = ((read("package-lock.json")?.packages ?? {}) as Record<string, { dependencies?: Record<string, string> }>)[""]?.dependencies ?? {};
  const wanted = Object.keys((manifest.dependencies ?? {}) as Record<string, string>);
  const missing = wanted.filter((name) => !(name in lock));
  return missing.length > 0 ? `${missing.join(", ")} in ${shown}/package-lock.json` : null;
}
