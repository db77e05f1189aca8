import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { materialize, REPO } from "../helpers/cli.js";

// The README's Install section, followed as written: its clone line in a clone of this repository (HEAD: commit what
// you test), then each package manager's line on a fixture workspace with that tarball, then `build` and `init`
// through the manager's runner. Slow (a clone, npm ci, a build, five installs: minutes the first time) and it reaches
// the npm registry, the only address it uses: pnpm, Yarn and Bun come from npm into a cache this suite owns
// (CTXINJECT_INSTALL_CACHE, else ~/.cache/ctxinject-install), as do their package stores, so later runs mostly
// read caches (every manager is told to prefer them).

const CACHE = process.env.CTXINJECT_INSTALL_CACHE ?? join(homedir(), ".cache/ctxinject-install");
/** Each package manager the README names besides npm, pinned: its npm package and the binaries it brings. */
const TOOLS = [
  { pkg: "pnpm", version: "12.21.0", bins: ["pnpm"] },
  { pkg: "@yarnpkg/cli-dist", version: "4.18.1", bins: ["yarn"] },
  { pkg: "bun", version: "1.4.5", bins: ["bun", "bunx"] },
];
const TARGET = "packages/web/src/components/Button.tsx";

const scratch = mkdtempSync(join(tmpdir(), "ctxinject-install-"));
test.after(() => rmSync(scratch, { recursive: true, force: true }));

const readme = readFileSync(join(REPO, "README.md"), "utf8");
const docs = readFileSync(join(REPO, "docs/install.md"), "utf8");
const at = readme.indexOf("## Install\n");
const install = readme.slice(at, readme.indexOf("\n## ", at + 1));
/** The Install section's command lines, without their comments, and each comment's `then: RUNNER`. */
const lines = install
  .split("\n")
  .filter((l) => l.startsWith("    "))
  .map((l) => ({ command: l.replace(/\s+#.*$/, "").trim(), runner: /# .*then: (.+)$/.exec(l)?.[1]?.trim() }));

/** A folder of links to the cached package managers, for PATH; installed on first use. */
function toolsOnPath(): string {
  const bin = join(scratch, "tools");
  mkdirSync(bin, { recursive: true });
  for (const tool of TOOLS) {
    const dir = join(CACHE, `${tool.pkg.replace(/^@/, "").replace(/\//g, "-")}-${tool.version}`);
    if (!existsSync(join(dir, "node_modules/.bin", tool.bins[0]!))) {
      const made = spawnSync(
        "npm",
        ["install", "--prefix", dir, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error", `${tool.pkg}@${tool.version}`],
        { encoding: "utf8", timeout: 10 * 60_000 },
      );
      assert.is(made.status, 0, `npm could not install ${tool.pkg}@${tool.version}: ${made.stderr}`);
    }
    for (const name of tool.bins) symlinkSync(join(dir, "node_modules/.bin", name), join(bin, name));
  }
  return bin;
}

const home = join(scratch, "home");
const globalPrefix = join(scratch, "global");
mkdirSync(home, { recursive: true });
/**
 * This process's environment (its proxy and certificate settings) without npm's script variables, and every manager's
 * caches in CACHE (npm's: the user's own), its registry npm's, no telemetry. pnpm's store is set in the workspace.
 */
// NO_COLOR too: Yarn sets FORCE_COLOR for the scripts it runs, and Node warns when both are set.
const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== "NO_COLOR"));
const env: Record<string, string | undefined> = {
  ...inherited,
  PATH: [join(globalPrefix, "bin"), toolsOnPath(), dirname(process.execPath), process.env.PATH ?? ""].join(":"),
  HOME: home,
  XDG_CACHE_HOME: join(scratch, "xdg-cache"),
  XDG_CONFIG_HOME: join(scratch, "xdg-config"),
  XDG_DATA_HOME: join(scratch, "xdg-data"),
  CTXINJECT_HOOK_SERVER: "0",
  npm_config_cache: process.env.npm_config_cache ?? join(homedir(), ".npm"),
  npm_config_prefer_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
  npm_config_registry: "https://registry.npmjs.org/",
  YARN_NPM_REGISTRY_SERVER: "https://registry.npmjs.org",
  YARN_GLOBAL_FOLDER: join(CACHE, "yarn"),
  YARN_ENABLE_GLOBAL_CACHE: "1",
  YARN_ENABLE_TELEMETRY: "0",
  BUN_INSTALL_CACHE_DIR: join(CACHE, "bun-cache"),
  DO_NOT_TRACK: "1",
};

function sh(command: string, cwd: string, extra: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync("bash", ["-c", command], { cwd, env: { ...env, ...extra }, encoding: "utf8", timeout: 10 * 60_000 });
  return { status: run.status, stdout: run.stdout ?? "", stderr: run.stderr ?? "" };
}

/** The README's clone line, run on a local clone of this repository: the tarball it packs. */
function packFromClone(): string {
  const line = lines.find((l) => l.command.startsWith("git clone "));
  assert.ok(line, "README's Install has no `git clone` line");
  const cloned = sh(line.command.replace("<this repository>", REPO), scratch);
  assert.is(cloned.status, 0, cloned.stderr);
  const clone = join(scratch, "ctxinject");
  const tarball = readdirSync(clone).find((f) => /^ctxinject-.*\.tgz$/.test(f));
  assert.ok(tarball, `no tarball in the clone: ${cloned.stdout}`);
  // The clone runs as the README says it does once built.
  const version = sh("node bin/ctxinject.js --version", clone);
  assert.is(version.status, 0, version.stderr);
  return join(clone, tarball);
}

/** CTXINJECT_INSTALL_TGZ: a tarball to install instead (the clone's line is then not run). */
let tgz = process.env.CTXINJECT_INSTALL_TGZ ?? "";

if (!tgz) {
  test("in a clone, the README's line installs, builds and packs: the clone's bin runs, the tarball is made", () => {
    tgz = packFromClone();
  });
}

/** A workspace as each manager keeps one: first-run's tree, a root package and a package under packages/. */
function workspace(manager: string): string {
  const root = materialize("first-run");
  const rootPkg: Record<string, unknown> = { name: "widget", private: true };
  const store = `storeDir: ${JSON.stringify(join(CACHE, "pnpm-store"))}\npreferOffline: true\n`;
  if (manager === "pnpm") writeFileSync(join(root, "pnpm-workspace.yaml"), `packages:\n  - packages/*\n${store}`);
  else rootPkg.workspaces = ["packages/*"];
  writeFileSync(join(root, "package.json"), `${JSON.stringify(rootPkg, null, 2)}\n`);
  writeFileSync(join(root, "packages/web/package.json"), `${JSON.stringify({ name: "web", version: "1.0.0", private: true }, null, 2)}\n`);
  return root;
}

const MANAGERS: Array<[string, RegExp]> = [
  ["npm", /^npm install --save-dev /],
  ["pnpm", /^pnpm add /],
  ["yarn", /^yarn add /],
  ["bun", /^bun add /],
  ["global", /^npm install -g /],
];

for (const [manager, shape] of MANAGERS) {
  test(`${manager}: the README's line installs the tarball in a workspace, and its runner builds and inits`, () => {
    assert.ok(tgz, "no tarball (the clone test failed)");
    const line = lines.find((l) => shape.test(l.command));
    assert.ok(line?.runner, `README's Install has no ${manager} line with a "then: RUNNER" comment`);
    const root = workspace(manager);
    // A global install goes under a prefix of the test's own (its bin is first on PATH).
    const added = sh(line.command, root, manager === "global" ? { TGZ: tgz, npm_config_prefix: globalPrefix } : { TGZ: tgz });
    assert.is(added.status, 0, `${line.command}\n${added.stdout}\n${added.stderr}`);
    const built = sh(`${line.runner} build --files ${TARGET}`, root);
    assert.is(built.status, 0, `${line.runner} build: ${built.stderr}`);
    assert.match(built.stdout, "<!-- directory-agents: packages/web/AGENTS.md (normal) -->");
    assert.is(built.stderr, "", `${line.runner} build`);
    // The README's next lines run `npx ctxinject init`, npx standing for the manager's runner.
    const init = lines.find((l) => l.command === "npx ctxinject init");
    assert.ok(init, "README's Install has no `npx ctxinject init` line");
    const inited = sh(init.command.replace(/^npx ctxinject/, line.runner), root);
    assert.is(inited.status, 0, inited.stderr);
    assert.ok(existsSync(join(root, ".ctxinjectrc.yaml")), `${line.runner} init wrote no .ctxinjectrc.yaml`);
    // The library loads too (Yarn's Plug'n'Play: through its loader, `yarn node`).
    if (manager !== "global") {
      const node = manager === "yarn" ? "yarn node" : "node";
      const imported = sh(`${node} --input-type=module -e 'const m = await import("ctxinject"); console.log(typeof m.gather)'`, root);
      assert.is(imported.stdout.trim(), "function", imported.stderr);
    }
    // docs/install.md's table shows the same line.
    assert.ok(docs.includes(`\`${line.command}\``), `docs/install.md does not show \`${line.command}\``);
    if (manager === "global") {
      assert.ok(existsSync(join(globalPrefix, "lib/node_modules/ctxinject/package.json")), "not installed under the global prefix");
    } else {
      const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { devDependencies?: Record<string, string> };
      assert.ok(pkg.devDependencies?.ctxinject, `${manager}: ctxinject is no devDependency of the workspace root`);
    }
  });
}

test.run();
