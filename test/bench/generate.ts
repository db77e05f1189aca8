/**
 * Deterministic synthetic repositories for the benchmark: packages with AGENTS.md, README.md and nested
 * `.cursor/rules`, many source files in nested folders, root rules of every kind, and a git-ignored
 * node_modules full of instruction files that must never be read. Same size, same bytes, every time.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface Size {
  name: string;
  packages: number;
  sourcesPerPackage: number;
  dependencies: number;
}

export const SIZES: Size[] = [
  { name: "small", packages: 10, sourcesPerPackage: 40, dependencies: 10 },
  { name: "medium", packages: 100, sourcesPerPackage: 90, dependencies: 100 },
  { name: "large", packages: 1000, sourcesPerPackage: 90, dependencies: 1000 },
];

/** Bump when the generated tree changes, so cached trees are rebuilt. */
const VERSION = 1;

const para = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `Rule ${i + 1} about ${topic}: keep the change small, test it, and explain why it is needed.`).join("\n");

function write(root: string, path: string, text: string): void {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, text);
}

export interface Generated {
  root: string;
  files: number;
  /** A deep source file inside the last package: the target of targeted builds. */
  target: string;
}

/** Writes (or reuses) the tree for a size under `base`; `git` makes it a repository with one commit. */
export function generate(base: string, size: Size, git: boolean): Generated {
  const root = join(base, `${size.name}-${git ? "git" : "plain"}-v${VERSION}`);
  const last = `packages/pkg-${String(size.packages - 1).padStart(4, "0")}`;
  const target = `${last}/src/feature-${size.sourcesPerPackage - 1}/deep/nested/file-${size.sourcesPerPackage - 1}.ts`;
  const marker = join(root, ".bench-complete");
  let files = 0;
  const put = (path: string, text: string) => {
    write(root, path, text);
    files++;
  };
  if (existsSync(marker)) return { root, files: Number(spawnSync("cat", [marker], { encoding: "utf8" }).stdout), target };
  rmSync(root, { recursive: true, force: true });

  put(".gitignore", "node_modules/\n");
  put("package.json", JSON.stringify({ name: "bench-monorepo", private: true }));
  put("AGENTS.md", `# Monorepo\n\n${para("the monorepo", 12)}\n`);
  put("README.md", `# Bench monorepo\n\n${para("the readme", 20)}\n`);
  put(".cursorrules", para("legacy cursor rules", 4));
  put(".github/copilot-instructions.md", para("copilot", 6));
  put(".github/instructions/ci.instructions.md", `---\napplyTo: ".github/**/*.yml"\n---\n${para("ci", 5)}\n`);
  put(".github/instructions/ts.instructions.md", `---\napplyTo: "**/*.ts"\n---\n${para("typescript", 5)}\n`);
  put(".cursor/rules/always.mdc", `---\ndescription: House rules\nalwaysApply: true\n---\n${para("house rules", 8)}\n`);
  put(".cursor/rules/ts.mdc", `---\ndescription: TypeScript\nglobs: *.ts,*.tsx\nalwaysApply: false\n---\n${para("typescript style", 8)}\n`);
  put(".cursor/rules/db.mdc", `---\ndescription: Database migrations and schema changes\n---\n${para("migrations", 8)}\n`);
  put(".cursor/rules/release.mdc", para("releases", 6));
  put(".claude/rules/conventions.md", `# Conventions\n\n${para("conventions", 6)}\n`);
  put(".claude/rules/packages.md", `---\npaths:\n  - "packages/**"\n---\n${para("packages", 6)}\n`);
  put("docs/kord/rules/review.md", `---\nalwaysApply: true\npriority: high\n---\n${para("review", 6)}\n`);

  for (let p = 0; p < size.packages; p++) {
    const pkg = `packages/pkg-${String(p).padStart(4, "0")}`;
    put(`${pkg}/AGENTS.md`, `# ${pkg}\n\n${para(`package ${p}`, 6)}\n`);
    put(`${pkg}/README.md`, `# ${pkg}\n\n${para(`the ${p} readme`, 8)}\n`);
    put(`${pkg}/.cursor/rules/api.mdc`, `---\nglobs: src/**/*.ts\n---\n${para(`api of ${p}`, 4)}\n`);
    put(`${pkg}/.cursor/rules/tests.mdc`, `---\nglobs: ["**/*.test.ts"]\n---\n${para(`tests of ${p}`, 4)}\n`);
    put(`${pkg}/.cursor/rules/style.mdc`, `---\ndescription: Styling for package ${p}\n---\n${para(`styles of ${p}`, 4)}\n`);
    for (let f = 0; f < size.sourcesPerPackage; f++) {
      put(`${pkg}/src/feature-${f}/deep/nested/file-${f}.ts`, `export const value${f} = ${f};\n`);
    }
  }
  for (let d = 0; d < size.dependencies; d++) {
    const dep = `node_modules/dep-${String(d).padStart(4, "0")}`;
    put(`${dep}/AGENTS.md`, "Dependency instructions: must never be read.\n");
    put(`${dep}/README.md`, "Dependency readme: must never be read.\n");
    put(`${dep}/.cursor/rules/evil.mdc`, "---\nalwaysApply: true\n---\nDependency rule: must never be read.\n");
    put(`${dep}/index.js`, "module.exports = 1;\n");
  }
  if (git) {
    const run = (...args: string[]) => {
      const r = spawnSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd: root, encoding: "utf8", maxBuffer: 1 << 28 });
      if (r.status !== 0) throw new Error(`git ${args[0]} failed in ${root}: ${r.stderr}`);
    };
    run("init", "-q");
    run("add", "-A");
    run("commit", "-qm", "bench tree");
  }
  writeFileSync(marker, String(files));
  return { root, files, target };
}
