/**
 * Git runs in the environment of the run that asks, not the one the process had at its first git call: the hook
 * server answers each hook in that hook's environment, one after another in one process (as runMain does here).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { join } from "node:path";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

test.after(cleanup);

const HANDLERS = "packages/api/.cursor/rules/handlers.mdc";

test("build --staged in one process: each run's git sees its own GIT_INDEX_FILE, whichever ran first", async () => {
  const root = materialize("monorepo");
  // An index of its own that holds nothing: nothing is staged there.
  const empty = { GIT_INDEX_FILE: join(root, ".git/empty-index") };
  const staged = async (env: Record<string, string>) => {
    const built = await runMain(["build", "--root", root, "--staged", "--format", "json"], { env });
    assert.is(built.status, 0, built.stderr);
    return (JSON.parse(built.stdout) as { entries: Array<{ path?: string }> }).entries.map((e) => e.path);
  };
  assert.not.ok((await staged(empty)).includes(HANDLERS), "the empty index stages nothing: no rule of a staged file");
  assert.ok((await staged({})).includes(HANDLERS), "the repository's own index stages packages/api/src/handlers/user.ts");
  assert.not.ok((await staged(empty)).includes(HANDLERS), "the empty index again");
});

test.run();
