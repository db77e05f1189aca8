import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

test.after(cleanup);

test("a mistyped --files target is warned about, naming the nearest existing name, and the others are still built", async () => {
  const root = materialize("monorepo");
  const { status, stdout, stderr } = await runMain(
    ["build", "--files", "packages/api/src/handlers/userz.ts", "--files", "packages/web/src/components/Button.tsx"],
    { cwd: root },
  );
  assert.is(status, 0, stderr);
  assert.match(stderr, "ctxinject: warning: packages/api/src/handlers/userz.ts: no such file; did you mean packages/api/src/handlers/user.ts?");
  assert.match(stdout, "<!-- rules-injector: packages/web/.cursor/rules/components.mdc (normal) -->", "the other target is built");
});

test("a mistyped folder on the way is suggested too; with nothing close the warning names the path alone; a prompt's paths are not warned about", async () => {
  const root = materialize("monorepo");
  const folder = await runMain(["build", "--files", "packages/api/src/handler/user.ts"], { cwd: root });
  assert.match(folder.stderr, "packages/api/src/handler/user.ts: no such file; did you mean packages/api/src/handlers/user.ts?");
  const far = await runMain(["build", "--files", "packages/api/src/handlers/completely-different.ts"], { cwd: root });
  // In plain words what happens: the path is still built for (issue 44 item 13).
  assert.match(
    far.stderr,
    "packages/api/src/handlers/completely-different.ts: no such file; the context is still built for this path, as for a file not written yet (rules whose globs match it apply)",
  );
  assert.not.match(far.stderr, "did you mean");
  // A path named in a prompt that does not exist is prose, not a command: no warning.
  const prose = await runMain(["build"], { cwd: root, input: "move the helpers to packages/api/src/handlers/userz.ts" });
  assert.is(prose.status, 0, prose.stderr);
  assert.not.match(prose.stderr, "no such file");
});

test.run();
