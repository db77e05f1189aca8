import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanup, materialize, runCli } from "../helpers/cli.js";

test.after(cleanup);

test("a mistyped --files target is warned about, naming the nearest existing name, and the others are still built", () => {
  const root = materialize("monorepo");
  const { status, stdout, stderr } = runCli(["build", "--files", "packages/api/src/handlers/userz.ts", "--files", "packages/web/src/components/Button.tsx"], { cwd: root });
  assert.is(status, 0, stderr);
  assert.match(stderr, "ctxinject: warning: packages/api/src/handlers/userz.ts: no such file; did you mean packages/api/src/handlers/user.ts?");
  assert.match(stdout, "<!-- rules-injector: packages/web/.cursor/rules/components.mdc (normal) -->", "the other target is built");
});

test("a mistyped folder on the way is suggested too; with nothing close the warning names the path alone; a prompt's paths are not warned about", () => {
  const root = materialize("monorepo");
  const folder = runCli(["build", "--files", "packages/api/src/handler/user.ts"], { cwd: root });
  assert.match(folder.stderr, "packages/api/src/handler/user.ts: no such file; did you mean packages/api/src/handlers/user.ts?");
  const far = runCli(["build", "--files", "packages/api/src/handlers/completely-different.ts"], { cwd: root });
  assert.match(far.stderr, "packages/api/src/handlers/completely-different.ts: no such file (");
  assert.not.match(far.stderr, "did you mean");
  // A path named in a prompt that does not exist is prose, not a command: no warning.
  const prose = runCli(["build"], { cwd: root, input: "move the helpers to packages/api/src/handlers/userz.ts" });
  assert.is(prose.status, 0, prose.stderr);
  assert.not.match(prose.stderr, "no such file");
});

test.run();
