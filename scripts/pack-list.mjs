// What the package ships of dist/: the bundles the bin runs, and the library's modules and types reachable from
// package.json's exports. tsc emits every module (the tests and the property suite import the CLI's), but a user
// runs the CLI from dist/bundle only, so the rest of tsc's output is never loaded from the tarball; and the V8 code
// caches are made for the Node that built the package (bin/ctxinject.js writes the user's own on the first run).
// npm honours an .npmignore inside a folder `files` names, so the build writes dist/.npmignore with what to leave out.
// Run as a script (the last step of `npm run build`), or imported by the tests.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Every string leaf of package.json's exports that points into dist/ (the modules and their types). */
function exportTargets(pkg) {
  const out = [];
  const walk = (v) => (typeof v === "string" ? v.startsWith("./dist/") && out.push(v.slice(2)) : v && typeof v === "object" && Object.values(v).forEach(walk));
  walk(pkg.exports);
  return out;
}

/** dist/ files (repo-relative, `/`-separated) the library loads: the exports and what they import, modules and types. */
export function libraryFiles(repo = REPO) {
  const pkg = JSON.parse(readFileSync(join(repo, "package.json"), "utf8"));
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    let text;
    try {
      text = readFileSync(join(repo, file), "utf8");
    } catch {
      return; // a types-only import's .js, or the other way round: nothing to ship
    }
    seen.add(file);
    for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
      if (!ref.fileName.startsWith(".")) continue;
      const target = join(dirname(file), ref.fileName).split("\\").join("/");
      // A declaration names the module (`./x.js`); its types sit beside it.
      visit(file.endsWith(".d.ts") ? target.replace(/\.js$/, ".d.ts") : target);
      if (!file.endsWith(".d.ts")) visit(target.replace(/\.js$/, ".d.ts"));
    }
  };
  for (const target of exportTargets(pkg)) visit(target);
  return seen;
}

/** Every file below dist/ (repo-relative). */
function distFiles(repo) {
  return readdirSync(join(repo, "dist"), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) =>
      relative(repo, join(e.parentPath ?? e.path, e.name))
        .split("\\")
        .join("/"),
    );
}

/** What dist/.npmignore leaves out: the code caches, and every module neither the bin nor the library loads. */
export function leftOut(repo = REPO) {
  const keep = libraryFiles(repo);
  return distFiles(repo)
    .filter((f) => f !== "dist/.npmignore" && !keep.has(f) && !/^dist\/bundle\/[^/]+\.cjs$/.test(f))
    .sort();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const lines = leftOut().map((f) => `/${f.slice("dist/".length)}`);
  writeFileSync(join(REPO, "dist/.npmignore"), `# Written by scripts/pack-list.mjs: what the package leaves out of dist/.\n${lines.join("\n")}\n`);
}
