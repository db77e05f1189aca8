/**
 * Deterministic synthetic monorepos for the benchmark, shaped like real ones: packages in groups (apps, services,
 * libs…), some with nested example packages; per package a README, most with an AGENTS.md, some with a CLAUDE.md
 * that imports it, Cursor and Claude rules; sources in a handful of folders of a dozen-odd files each (not one
 * file per folder), tests, docs and a changelog that are markdown but no instruction file; build output in an
 * ignored dist/; and a git-ignored node_modules full of packages that carry their own instruction files, which must
 * never be read. Same size, same bytes, every time.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface Size {
  name: string;
  packages: number;
  /** Source and test files per package, spread over a few folders. */
  sourcesPerPackage: number;
  dependencies: number;
}

export const SIZES: Size[] = [
  { name: "small", packages: 10, sourcesPerPackage: 40, dependencies: 20 },
  { name: "medium", packages: 100, sourcesPerPackage: 80, dependencies: 200 },
  { name: "large", packages: 1000, sourcesPerPackage: 80, dependencies: 1500 },
];

/** Bump when the generated tree changes, so cached trees are rebuilt. */
const VERSION = 2;

const GROUPS = ["apps", "services", "libs", "tools", "packages"];
/** Where a package's sources go, and what kind of file each folder holds. */
const FOLDERS: Array<[string, string]> = [
  ["src/components", ".tsx"],
  ["src/lib", ".ts"],
  ["src/hooks", ".ts"],
  ["src/api", ".ts"],
  ["src", ".ts"],
  ["test", ".test.ts"],
];

const para = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `Rule ${i + 1} about ${topic}: keep the change small, test it, and explain why it is needed.`).join("\n");

export interface Generated {
  root: string;
  files: number;
  /** A source file inside the last package: the target of targeted builds. */
  target: string;
}

/** The path of package `p`: grouped, with a name that says which it is. */
function packagePath(p: number): string {
  return `${GROUPS[p % GROUPS.length]}/pkg-${String(p).padStart(4, "0")}`;
}

/** Writes (or reuses) the tree for a size under `base`; `git` makes it a repository with one commit. */
export function generate(base: string, size: Size, git: boolean): Generated {
  const root = join(base, `${size.name}-${git ? "git" : "plain"}-v${VERSION}`);
  const last = packagePath(size.packages - 1);
  const target = `${last}/src/components/component-${Math.floor(size.sourcesPerPackage / FOLDERS.length) - 1}.tsx`;
  const marker = join(root, ".bench-complete");
  if (existsSync(marker)) return { root, files: Number(readFileSync(marker, "utf8")), target };
  rmSync(root, { recursive: true, force: true });
  let files = 0;
  const put = (path: string, text: string) => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    files++;
  };

  put(".gitignore", "node_modules/\ndist/\n.env\n");
  put("package.json", JSON.stringify({ name: "bench-monorepo", private: true, workspaces: GROUPS.map((g) => `${g}/*`) }));
  put("AGENTS.md", `# Monorepo\n\n${para("the monorepo", 12)}\n`);
  put("CLAUDE.md", "@AGENTS.md\n\nClaude Code: run the package's tests before you stop.\n");
  put("README.md", `# Bench monorepo\n\n${para("the readme", 20)}\n`);
  put("CONTRIBUTING.md", `# Contributing\n\n${para("contributing", 10)}\n`);
  put(".cursorrules", para("legacy cursor rules", 4));
  put(".github/copilot-instructions.md", para("copilot", 6));
  put(".github/instructions/ci.instructions.md", `---\napplyTo: ".github/**/*.yml"\n---\n${para("ci", 5)}\n`);
  put(".github/instructions/ts.instructions.md", `---\napplyTo: "**/*.ts"\n---\n${para("typescript", 5)}\n`);
  put(".github/workflows/ci.yml", "on: push\njobs: {}\n");
  put(".cursor/rules/always.mdc", `---\ndescription: House rules\nalwaysApply: true\n---\n${para("house rules", 8)}\n`);
  put(".cursor/rules/ts.mdc", `---\ndescription: TypeScript\nglobs: *.ts,*.tsx\nalwaysApply: false\n---\n${para("typescript style", 8)}\n`);
  put(".cursor/rules/db.mdc", `---\ndescription: Database migrations and schema changes\n---\n${para("migrations", 8)}\n`);
  put(".cursor/rules/release.mdc", para("releases", 6));
  put(".claude/rules/conventions.md", `# Conventions\n\n${para("conventions", 6)}\n`);
  put(".claude/rules/packages.md", `---\npaths:\n  - "packages/**"\n---\n${para("packages", 6)}\n`);
  put("docs/kord/rules/review.md", `---\nalwaysApply: true\npriority: high\n---\n${para("review", 6)}\n`);
  put("docs/architecture.md", `# Architecture\n\n${para("the architecture", 15)}\n`);

  const perFolder = Math.floor(size.sourcesPerPackage / FOLDERS.length);
  const writePackage = (pkg: string, p: number, nested: boolean) => {
    put(`${pkg}/package.json`, JSON.stringify({ name: `@bench/${pkg.replace(/\//g, "-")}`, version: "1.0.0" }));
    put(`${pkg}/README.md`, `# ${pkg}\n\n${para(`the ${p} readme`, 8)}\n`);
    if (p % 5 !== 4) put(`${pkg}/AGENTS.md`, `# ${pkg}\n\n${para(`package ${p}`, 6)}\n`);
    if (p % 10 === 0 && !nested) put(`${pkg}/CLAUDE.md`, "@AGENTS.md\n");
    put(`${pkg}/CHANGELOG.md`, `# Changelog\n\n## 1.0.0\n\n- First release of ${pkg}.\n`);
    if (!nested) {
      put(`${pkg}/.cursor/rules/api.mdc`, `---\nglobs: src/**/*.ts\n---\n${para(`api of ${p}`, 4)}\n`);
      if (p % 2 === 0) put(`${pkg}/.cursor/rules/tests.mdc`, `---\nglobs: ["**/*.test.ts"]\n---\n${para(`tests of ${p}`, 4)}\n`);
      if (p % 3 === 0) put(`${pkg}/.cursor/rules/style.mdc`, `---\ndescription: Styling for package ${p}\n---\n${para(`styles of ${p}`, 4)}\n`);
      if (p % 7 === 0) put(`${pkg}/.claude/rules/local.md`, `---\npaths:\n  - "src/**"\n---\n${para(`local rules of ${p}`, 4)}\n`);
      put(`${pkg}/docs/guide.md`, `# Guide\n\n${para(`using ${p}`, 6)}\n`);
      put(`${pkg}/tsconfig.json`, '{ "extends": "../../tsconfig.base.json" }\n');
      // Build output: ignored, and a README in it must never be read.
      put(`${pkg}/dist/index.js`, "module.exports = {};\n");
      put(`${pkg}/dist/README.md`, "Built copy: must never be read.\n");
    }
    for (const [folder, ext] of FOLDERS) {
      const stem = folder.split("/").pop()!.replace(/s$/, "");
      for (let f = 0; f < (nested ? 2 : perFolder); f++) put(`${pkg}/${folder}/${stem}-${f}${ext}`, `export const ${stem}${f} = ${f};\n`);
    }
  };
  for (let p = 0; p < size.packages; p++) {
    const pkg = packagePath(p);
    writePackage(pkg, p, false);
    // Every 25th package keeps an example package of its own.
    if (p % 25 === 0) writePackage(`${pkg}/examples/basic`, p, true);
  }

  for (let d = 0; d < size.dependencies; d++) {
    const dep = d % 4 === 0 ? `node_modules/@scope/dep-${String(d).padStart(4, "0")}` : `node_modules/dep-${String(d).padStart(4, "0")}`;
    put(`${dep}/package.json`, JSON.stringify({ name: dep.slice("node_modules/".length), version: "1.0.0" }));
    put(`${dep}/AGENTS.md`, "Dependency instructions: must never be read.\n");
    put(`${dep}/README.md`, "Dependency readme: must never be read.\n");
    put(`${dep}/.cursor/rules/evil.mdc`, "---\nalwaysApply: true\n---\nDependency rule: must never be read.\n");
    put(`${dep}/index.js`, "module.exports = 1;\n");
    put(`${dep}/lib/util.js`, "module.exports = 2;\n");
  }
  if (git) {
    const run = (...args: string[]) => {
      const r = spawnSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false", ...args], {
        cwd: root,
        encoding: "utf8",
        maxBuffer: 1 << 28,
      });
      if (r.status !== 0) throw new Error(`git ${args[0]} failed in ${root}: ${r.stderr}`);
    };
    run("init", "-q");
    run("add", "-A");
    run("commit", "-qm", "bench tree");
  }
  writeFileSync(marker, String(files));
  return { root, files, target };
}
