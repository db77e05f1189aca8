import { resolve } from "node:path";
import { usageError } from "../../core/errors.js";
import { outFile, readTarget, writeTarget } from "../fs/confine.js";
import { hooksFolder, type GitEnvironment } from "./git.js";

const BEGIN = "# >>> ctxinject >>>";
const END = "# <<< ctxinject <<<";

/** The block a pre-commit hook runs: regenerate the file, stage it, and stop the commit if that fails. */
export function hookBlock(out: string): string {
  if (out.includes("'")) throw usageError(`--out ${out}: a path with a single quote cannot go into the hook`);
  return [
    BEGIN,
    "# Regenerates the agents context file from the repository's instruction files and stages it.",
    'if command -v ctxinject >/dev/null 2>&1; then CTXINJECT=ctxinject; else CTXINJECT="npx --no-install ctxinject"; fi',
    `($CTXINJECT build --all --out '${out}' </dev/null && git add -- '${out}') || exit 1`,
    END,
  ].join("\n");
}

/**
 * Installs (or refreshes) ctxinject's block in the repository's pre-commit hook, wherever core.hooksPath puts
 * it. Another hook already there is kept: the block goes right after its first line.
 */
export function installPreCommitHook(root: string, out: string, env: GitEnvironment): string {
  const hooks = hooksFolder(root, env);
  if (!hooks.ok) throw usageError(`--git-hook: ${root} is not in a git repository (${hooks.stderr.split("\n")[0]})`);
  const path = resolve(root, hooks.stdout.trim(), "pre-commit");
  // In the project (`.git/hooks`, a committed `.githooks`): no link on the way, nor a linked pre-commit, is written
  // through. Elsewhere (a worktree's or submodule's git folder, a core.hooksPath of the user's) it is git's folder.
  const target = outFile(root, root, path, "--git-hook");
  const block = hookBlock(out);
  const current = readTarget(target);
  let next: string;
  if (current === null) next = `#!/bin/sh\n${block}\n`;
  else if (current.includes(BEGIN) && current.includes(END)) {
    next = current.slice(0, current.indexOf(BEGIN)) + block + current.slice(current.indexOf(END) + END.length);
  } else {
    const newline = current.indexOf("\n");
    next =
      current.startsWith("#!") && newline !== -1
        ? `${current.slice(0, newline + 1)}${block}\n${current.slice(newline + 1)}`
        : `#!/bin/sh\n${block}\n${current}`;
  }
  writeTarget(target, next, { mode: 0o755 });
  return path;
}
