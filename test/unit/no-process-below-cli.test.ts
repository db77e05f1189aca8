import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";

/**
 * Below src/cli nothing reads `process`: the environment, the working folder, argv, the standard streams and the
 * platform come in through the CliContext and the pipeline's RunEnvironment, so a test (or the hook server, or a
 * library caller) can hand in its own. Each use still here is listed with why it stays.
 */
const ALLOWED: Record<string, { uses: string[]; why: string }> = {
  // What truly must: facts of the running process itself, not of the outside world a command is run in.
  "src/io/fs/atomic-write.ts": { uses: ["process.pid"], why: "the temporary file is named for the writing process" },
  "src/io/fs/confine.ts": { uses: ["process.pid"], why: "the temporary file is named for the writing process" },
  "src/io/host-setup/npm-install.ts": {
    uses: ["process.execPath"],
    why: "npm's CLI script is run by this very Node, so no `node` is looked up on a PATH a project put a folder on",
  },
  "src/io/session/session-store.ts": {
    uses: ["process.pid", "process.kill", "process.getuid"],
    why: "a claim names its process, a stale claim's process is probed for life, and the state folder is tightened only when this user owns it",
  },
  "src/io/host-setup/opencode-setup.ts": { uses: ["process.env"], why: "the text of the plugin loader file init writes, run by opencode, not here" },
  "src/io/host-setup/cline-setup.ts": {
    uses: ["process.env", "process.execPath", "process.cwd", "process.versions"],
    why: "the text of the plugin file init --cline writes, run by Cline's plugin sandbox, not here",
  },
  "src/integrations/opencode-plugin.ts": {
    uses: ["process.env", "process.platform"],
    why: "the opencode plugin's entry: opencode loads it in its own process, no CLI is above it to hand the environment over",
  },
  // The hook transport's hand-over folder belongs to the process that serves it, not to a command's outside world.
  "src/io/hook-transport/spool.ts": {
    uses: ["process.platform", "process.getuid", "process.version", "process.arch", "process.pid"],
    why: "the hook server's hand-over folder is keyed by this process's user, Node and build (Linux only), and names its server's pid",
  },
  // The machine's own path rules: node:path (imported beside it) is this process's platform's too.
  "src/io/fs/paths.ts": { uses: ["process.platform"], why: "HOST_PATHS, whether this machine's file system folds case, goes with node:path's own platform" },
};

const FOLDERS = ["src/io", "src/core", "src/integrations", "src/hosts"];

function sourceFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // src/hosts may not exist yet
  }
  return entries.flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

test("no module under src/io, src/core, src/integrations or src/hosts reads process, except the uses listed with their reason", () => {
  const repo = join(import.meta.dirname, "../..");
  const found: string[] = [];
  for (const folder of FOLDERS) {
    for (const file of sourceFiles(join(repo, folder))) {
      const name = relative(repo, file).split("\\").join("/");
      const allowed = ALLOWED[name]?.uses ?? [];
      for (const [use] of readFileSync(file, "utf8").matchAll(/\bprocess\.[A-Za-z_$]+/g)) if (!allowed.includes(use)) found.push(`${name}: ${use}`);
    }
  }
  assert.equal(found, []);
});

test("every allowed use is still there (a use passed in is taken off the list)", () => {
  const repo = join(import.meta.dirname, "../..");
  const stale = Object.entries(ALLOWED).flatMap(([name, { uses }]) => {
    const text = readFileSync(join(repo, name), "utf8");
    return uses.filter((use) => !text.includes(use)).map((use) => `${name}: ${use}`);
  });
  assert.equal(stale, []);
});

test.run();
