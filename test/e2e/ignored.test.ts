import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

// Targeted builds decide what git ignores from the ignore files themselves, and ask git when a config names
// files only git resolves. Either way the answer must be git's.

const { folder } = tempFolders(test);
test.after(cleanup);

const TARGET = "packages/api/src/handlers/user.ts";
const TOOL = "tools/release.sh";

function write(root: string, path: string, text: string) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** An always-applying rule whose body is its own marker word. */
const rule = (marker: string) => `---\ndescription: ${marker}\nalwaysApply: true\n---\nRule body ${marker}.\n`;

/** A repository with rules that each ignore source would hide, and a private HOME for git's global files. */
function repository() {
  const root = materialize("monorepo");
  const home = folder("home");
  write(root, ".cursor/rules/mine.local.mdc", rule("marker-root-gitignore"));
  write(root, "packages/api/.cursor/rules/shared.local.mdc", rule("marker-reincluded"));
  write(root, "packages/api/.cursor/rules/wip.mdc", rule("marker-nested-gitignore"));
  write(root, ".cursor/rules/personal.mdc", rule("marker-info-exclude"));
  write(root, ".cursor/rules/scratch.mdc", rule("marker-global-excludes"));
  write(root, ".cursor/rules/custom.mdc", rule("marker-custom-excludes"));
  write(root, ".cursor/rules/kept.mdc", rule("marker-kept"));
  write(root, "tools/.cursor/rules/linked.mdc", rule("marker-symlinked-gitignore"));
  write(root, "ignore-rules.txt", "linked.mdc\n");
  symlinkSync("../ignore-rules.txt", join(root, "tools/.gitignore"));
  write(root, ".gitignore", "generated/\n*.local.mdc\n");
  write(root, "packages/api/.gitignore", "!shared.local.mdc\nwip.mdc\n");
  write(root, ".git/info/exclude", "personal.mdc\n");
  write(home, ".config/git/ignore", "scratch.mdc\n");
  const env = { HOME: home, XDG_CONFIG_HOME: undefined, GIT_CONFIG_NOSYSTEM: undefined };
  return { root, home, env };
}

/** Spawned, not in-process: git finds the user's ignore file from the environment of the process it runs in. */
async function included(root: string, env: Record<string, string | undefined>, target = TARGET): Promise<string> {
  const result = await runMain(["build", "--files", target, "--no-passthrough"], { cwd: root, env });
  assert.is(result.status, 0, result.stderr);
  return result.stdout;
}

test("a targeted build leaves out what .gitignore files, info/exclude and the global excludes file ignore", async () => {
  const { root, env } = repository();
  const out = await included(root, env);
  assert.match(out, "marker-kept");
  assert.match(out, "marker-reincluded", "a deeper .gitignore re-includes a file a higher one ignores");
  assert.match(out, "marker-custom-excludes", "no config names an excludes file here");
  for (const hidden of ["marker-root-gitignore", "marker-nested-gitignore", "marker-info-exclude", "marker-global-excludes"]) {
    assert.not.match(out, hidden);
  }
});

test("a core.excludesFile set in the user's git config is honoured (git is asked)", async () => {
  const { root, home, env } = repository();
  write(home, "my-ignores", "custom.mdc\n");
  write(home, ".gitconfig", `[core]\n\texcludesFile = ${join(home, "my-ignores")}\n`);
  const out = await included(root, env);
  assert.not.match(out, "marker-custom-excludes");
  assert.not.match(out, "marker-root-gitignore");
  assert.match(out, "marker-kept");
  assert.match(out, "marker-global-excludes", "a configured excludes file replaces the default one, as in git");
});

test("a .gitignore that is a symbolic link is not read, as git does not read it", async () => {
  const { root, env } = repository();
  assert.match(await included(root, env, TOOL), "marker-symlinked-gitignore");
});

test("core.ignoreCase set in the user's git config is honoured (git is asked)", async () => {
  const { root, home, env } = repository();
  write(root, ".gitignore", "generated/\n*.local.mdc\nKEPT.MDC\n");
  assert.match(await included(root, env), "marker-kept", "case matters by default");
  write(home, ".gitconfig", "[core]\n\tignoreCase = true\n");
  assert.not.match(await included(root, env), "marker-kept");
});

test.run();
