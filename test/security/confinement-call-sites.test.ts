/**
 * Issue 42: the confinement (io/fs/confine.ts) holds only if nothing else opens or writes a file. This walks every
 * module of src/ and holds what opens or writes a file to a short list, each with why it may: a new feature that
 * opens a file some other way fails here until it goes through io/fs/confine.ts (or says why it need not).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { REPO } from "../helpers/cli.js";

/** What opens a file's content or changes the file system, in node:fs (listing a folder or a stat is not here). */
const FS_OPENERS = new Set([
  "open",
  "openSync",
  "readFile",
  "readFileSync",
  "writeFile",
  "writeFileSync",
  "appendFile",
  "appendFileSync",
  "rename",
  "renameSync",
  "mkdir",
  "mkdirSync",
  "createReadStream",
  "createWriteStream",
  "copyFile",
  "copyFileSync",
  "cp",
  "cpSync",
  "chmod",
  "chmodSync",
  "symlink",
  "symlinkSync",
  "link",
  "linkSync",
  "rm",
  "rmSync",
  "unlink",
  "unlinkSync",
  "truncate",
  "truncateSync",
  "utimes",
  "utimesSync",
  "promises",
]);

/** The openers of other modules: bounded reads of any path, and the state folder's atomic writes. */
const HELPERS: Record<string, Set<string>> = {
  "bounded-read.js": new Set(["readBoundedBytes", "readBoundedText", "readInTree"]),
  "atomic-write.js": new Set(["writeFileAtomically"]),
};

/**
 * Every module that may open or write a file other than through io/fs/confine.ts, and why. Files a repository controls
 * by name go through io/fs/confine.ts (ConfinedReader, WriteTarget); these touch fixed names, the user's own files or
 * the state folder.
 */
const ALLOWED: Record<string, string> = {
  "src/io/fs/confine.ts": "the confinement itself",
  "src/io/fs/bounded-read.ts": "the bounded open under it (O_NOFOLLOW, O_NONBLOCK, a size limit)",
  "src/io/config/config.ts": "the config file at the root by its fixed names (a link out refused unless allowOutside) and the user's own config",
  "src/io/config-code.ts": "a trusted JavaScript config's own text",
  "src/io/git/git-index.ts": "`.git/index` and `.git/config` at the git top, fixed names",
  "src/io/git/git-ignore.ts": "`.gitignore` files (fixed name) in the folders on a target's normalised path, and git's exclude file",
  "src/io/agent-settings.ts": "the hosts' settings files by fixed names (project and user), parsed for the names their agent loads, never printed",
  "src/io/fs/atomic-write.ts": "the state folder's files (trust list, warm cache, spool), the user's own",
  "src/io/session/session-store.ts": "the state folder (sessions)",
  "src/io/warm-cache.ts": "the state folder (warm cache)",
  "src/io/config/trust.ts": "the state folder (trust list)",
  "src/io/embeddings.ts": "the state folder (rule vectors)",
  "src/io/hook-transport/spool.ts": "the runtime folder (the hook server's spool)",
  "src/cli/hook-transport/client.ts": "the runtime folder (the hook server's spool)",
  "src/cli/hook-transport/server.ts": "the runtime folder (the hook server's spool and log)",
  "src/cli/main.ts": "ctxinject's own package.json",
  "src/cli/stdin.ts": "standard input (fd 0)",
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** The names a module imports from node:fs (or fs, fs/promises) and from the helper modules, top-level imports only. */
function openersOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const from = statement.moduleSpecifier.text;
    const bindings = statement.importClause?.namedBindings;
    const names = bindings && ts.isNamedImports(bindings) ? bindings.elements.filter((e) => !e.isTypeOnly).map((e) => (e.propertyName ?? e.name).text) : [];
    const whole = statement.importClause?.name !== undefined || (bindings !== undefined && ts.isNamespaceImport(bindings));
    if (/^(node:)?fs(\/promises)?$/.test(from)) {
      if (whole || from.endsWith("promises")) found.push(`${from} (whole module)`);
      for (const name of names) if (FS_OPENERS.has(name)) found.push(`${from}: ${name}`);
    }
    const helper = Object.keys(HELPERS).find((h) => from.endsWith(`/${h}`));
    if (helper !== undefined) for (const name of names) if (HELPERS[helper]!.has(name)) found.push(`${helper}: ${name}`);
  }
  // A module loaded by name at run time (lazyRequire) is as good as an import.
  if (/lazyRequire[^(]*\(\s*["'](node:)?fs/.test(source.text)) found.push("lazyRequire(node:fs)");
  return found;
}

test("only the listed modules open or write a file; everything else goes through io/fs/confine.ts", () => {
  const offenders: string[] = [];
  const used = new Set<string>();
  for (const file of sources(join(REPO, "src"))) {
    const rel = relative(REPO, file);
    const openers = openersOf(file);
    if (openers.length === 0) continue;
    used.add(rel);
    if (ALLOWED[rel] === undefined) offenders.push(`${rel}: ${openers.join(", ")}`);
  }
  assert.equal(offenders, [], `open or write files without io/fs/confine.ts:\n${offenders.join("\n")}`);
  // A module that no longer opens anything leaves the list, so the list stays short and true.
  assert.equal(
    Object.keys(ALLOWED).filter((rel) => !used.has(rel)),
    [],
    "listed but opening nothing",
  );
});

test("the pure core opens nothing and imports no file system module", () => {
  const impure = sources(join(REPO, "src/core")).filter((file) => /from\s+["'](node:)?fs(\/promises)?["']/.test(readFileSync(file, "utf8")));
  assert.equal(
    impure.map((f) => relative(REPO, f)),
    [],
  );
});

test("a write target is made by io/fs/confine.ts only", () => {
  const makers = sources(join(REPO, "src")).filter((file) => !file.endsWith("io/fs/confine.ts") && /new\s+WriteTarget\s*\(/.test(readFileSync(file, "utf8")));
  assert.equal(
    makers.map((f) => relative(REPO, f)),
    [],
  );
});

test("the walk sees what it is about: a module that opened a file without the confinement would be named", () => {
  // The check itself, on a module written the way the holes of issue 42 were.
  const offender = join(REPO, "src/io/fs/read.ts");
  assert.equal(openersOf(offender), [], "read.ts reads only through ConfinedReader");
  assert.ok(openersOf(join(REPO, "src/io/fs/confine.ts")).includes("node:fs: openSync"));
  assert.ok(openersOf(join(REPO, "src/io/agent-settings.ts")).includes("bounded-read.js: readBoundedText"));
});

test.run();
