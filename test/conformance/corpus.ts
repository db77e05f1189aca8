/**
 * The real-world corpus (../shared/corpus, see its README): where it is, and each repository recreated in a temporary
 * folder as a checkout would have it. Shared by the measurement (run.ts) and the property suite (properties.ts).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { REPO } from "../helpers/cli.js";

export const AGENT_FILES = ["AGENTS.md", "CLAUDE.md"];

/**
 * The corpus folder, first found of: $CTXINJECT_CORPUS; `../shared/corpus` beside this clone (CI clones main into a
 * folder beside `shared`); `../shared/corpus` beside the main checkout of a git worktree (its common git folder's
 * parent), so a worktree under another folder finds the same corpus. Undefined when none exists.
 */
export function corpusDir(): string | undefined {
  const fromEnv = process.env.CTXINJECT_CORPUS;
  if (fromEnv) return existsSync(fromEnv) ? resolve(fromEnv) : undefined;
  const candidates = [join(REPO, "../shared/corpus")];
  const common = spawnSync("git", ["rev-parse", "--path-format=absolute", "--git-common-dir"], { cwd: REPO, encoding: "utf8" });
  if (common.status === 0 && common.stdout.trim()) candidates.push(join(dirname(common.stdout.trim()), "../shared/corpus"));
  return candidates.find((c) => existsSync(c));
}

/** The corpus's repositories (folders), by name in code-unit order. */
export function corpusRepositories(corpus: string): string[] {
  return readdirSync(corpus)
    .filter((name) => statSync(join(corpus, name)).isDirectory())
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export function listFiles(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = join(dir, d.name);
    if (d.isDirectory()) return listFiles(full, base);
    return [relative(base, full).split("\\").join("/")];
  });
}

/** Every path of the repository's tree (`.ALLFILES.txt`). */
export function allFiles(repoDir: string): string[] {
  return readFileSync(join(repoDir, ".ALLFILES.txt"), "utf8").split("\n").filter(Boolean);
}

/**
 * The repository in a fresh temporary folder: the tree's shape as empty files, the instruction files copied over,
 * the symlinks made, an agents config naming AGENTS.md and CLAUDE.md, and everything staged in a new git repository
 * (--all reads git's index).
 */
export function materializeCorpus(repoDir: string): string {
  const dir = mkdtempSync(join(tmpdir(), "ctxinject-conformance-"));
  for (const path of allFiles(repoDir)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    if (!existsSync(join(dir, path))) writeFileSync(join(dir, path), "");
  }
  for (const path of listFiles(repoDir)) {
    if (path === ".ALLFILES.txt" || path === "SYMLINKS.txt") continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    copyFileSync(join(repoDir, path), join(dir, path));
  }
  const links = join(repoDir, "SYMLINKS.txt");
  if (existsSync(links)) {
    for (const line of readFileSync(links, "utf8").split("\n").filter(Boolean)) {
      const [link, target] = line.split(" -> ") as [string, string];
      const at = join(dir, link);
      rmSync(at, { recursive: true, force: true });
      mkdirSync(dirname(at), { recursive: true });
      symlinkSync(target, at);
    }
  }
  writeFileSync(join(dir, ".ctxinjectrc.json"), JSON.stringify({ agents: { files: AGENT_FILES } }));
  spawnSync("git", ["init", "-q"], { cwd: dir });
  spawnSync("git", ["add", "-A"], { cwd: dir });
  return dir;
}

/** Rows printed as a table, columns padded to their widest cell and joined with ` | `. */
export function printTable(table: string[][]): void {
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => (r[i] ?? "").length)));
  for (const row of table)
    console.log(
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join(" | ")
        .trimEnd(),
    );
}
