/**
 * The wide monorepo of issue 46 (`../shared/bench/gen-monorepo.mjs <dir> --packages 1000 --files 100 --noise 2000`,
 * then one commit), generated here byte for byte the same: 1,000 packages of 100 source files, each package with an
 * AGENTS.md, a README and three Cursor rules, and 2,000 git-ignored node_modules packages whose instruction files must
 * never be read — 105k tracked files, 5,108 instruction files. Every text is sentences drawn from one 40-word
 * vocabulary, so every rule resembles every other: a worst case for near-copy detection and for the credential
 * scan's hints (`token` is one of the words). Written once into the bench's cache folder, reused after.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Generated } from "./generate.js";

const PACKAGES = 1000;
const FILES = 100;
const NOISE = 2000;
const WORDS =
  "module handler request response cache token budget parser render config session priority rule agent context file index build test lint format schema store query event stream queue retry timeout error logger metric trace worker".split(
    " ",
  );
const SUBFOLDERS = ["src", "src/api", "src/core", "src/core/impl", "test"];

export function generateWide(base: string): Generated {
  const root = join(base, "wide-git-v1");
  const target = `packages/pkg-${PACKAGES - 1}/src/api/file-${FILES - 4}.ts`;
  const marker = join(root, ".bench-complete");
  if (existsSync(marker)) return { root, files: Number(readFileSync(marker, "utf8")), target };
  rmSync(root, { recursive: true, force: true });
  // gen-monorepo.mjs's generator: the same seed and the same calls in the same order give the same texts.
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const sentence = () => {
    const n = 6 + Math.floor(rnd() * 10);
    const w: string[] = [];
    for (let i = 0; i < n; i++) w.push(WORDS[Math.floor(rnd() * WORDS.length)]!);
    w[0] = w[0]![0]!.toUpperCase() + w[0]!.slice(1);
    return `${w.join(" ")}.`;
  };
  const para = (n: number) => Array.from({ length: n }, sentence).join(" ");
  let tracked = 0;
  const put = (path: string, text: string, ignored = false) => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    if (!ignored) tracked++;
  };
  put("AGENTS.md", `# Monorepo agents guide\n\n${para(8)}\n\n## Testing\n\n${para(5)}\n`);
  put("README.md", `# Monorepo\n\n${para(20)}\n`);
  put(".cursor/rules/always.mdc", `---\ndescription: Global conventions\nalwaysApply: true\n---\n\n${para(6)}\n`);
  put(".cursor/rules/typescript.mdc", `---\ndescription: TypeScript style\nglobs: **/*.ts, **/*.tsx\nalwaysApply: false\n---\n\n${para(6)}\n`);
  put(".cursor/rules/database.mdc", `---\ndescription: Database migrations and schema changes\nalwaysApply: false\n---\n\n${para(6)}\n`);
  put(".claude/rules/tests.md", `---\npaths:\n  - "**/*.test.ts"\n---\n\n${para(5)}\n`);
  put("docs/kord/rules/security.md", `---\ndescription: Security review rules\nalwaysApply: true\n---\n\n${para(5)}\n`);
  put(".github/instructions/python.instructions.md", `---\napplyTo: "**/*.py"\n---\n\n${para(4)}\n`);
  for (let p = 0; p < PACKAGES; p++) {
    const dir = `packages/pkg-${p}`;
    put(`${dir}/AGENTS.md`, `# pkg-${p}\n\n${para(4)}\n`);
    put(`${dir}/README.md`, `# pkg-${p}\n\n${para(10)}\n`);
    put(`${dir}/.cursor/rules/local.mdc`, `---\ndescription: pkg-${p} local rules\nglobs: src/**/*.ts\n---\n\n${para(3)}\n`);
    put(`${dir}/.cursor/rules/api.mdc`, `---\ndescription: pkg-${p} public API\nglobs: "src/api/**"\nalwaysApply: false\n---\n\n${para(3)}\n`);
    put(`${dir}/.cursor/rules/always.mdc`, `---\nalwaysApply: true\n---\n\n${para(2)}\n`);
    for (let f = 0; f < FILES; f++) put(`${dir}/${SUBFOLDERS[f % 5]}/file-${f}.${f % 7 === 0 ? "test.ts" : "ts"}`, `export const x${f} = ${f};\n`);
    if (p % 10 === 0) put(`${dir}/src/core/AGENTS.md`, `# core of pkg-${p}\n\n${para(3)}\n`);
  }
  for (let n = 0; n < NOISE; n++) {
    const dir = `node_modules/dep-${n}`;
    put(`${dir}/README.md`, `# dep-${n}\n\n${para(5)}\n`, true);
    put(`${dir}/AGENTS.md`, `# dep-${n} agents\n\n${para(2)}\n`, true);
    put(`${dir}/.cursor/rules/x.mdc`, `---\nalwaysApply: true\n---\nNOISE-MUST-NOT-APPEAR ${n}\n`, true);
    put(`${dir}/index.js`, `module.exports = ${n};\n`, true);
  }
  put(".gitignore", "node_modules/\ndist/\n");
  for (const args of [
    ["init", "-q"],
    ["add", "-A"],
    ["commit", "-qm", "wide bench tree"],
  ]) {
    const r = spawnSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false", ...args], {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 1 << 28,
    });
    if (r.status !== 0) throw new Error(`git ${args[0]} failed in ${root}: ${r.stderr}`);
  }
  writeFileSync(marker, String(tracked));
  return { root, files: tracked, target };
}
