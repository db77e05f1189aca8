import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

// How flags, config files and the environment map onto output and exit codes, through `main(argv, ctx)` in this
// process (test/helpers/main.ts): no process of its own to start for each case. What the process does (its exit,
// the bundle, stdin, the hook client) is held by the spawned suites; cli.test.ts keeps one usage error spawned.

test.after(cleanup);

test("usage errors exit 2 with one clear line and no stack", async () => {
  const root = materialize("monorepo");
  const cases: Array<[string[], RegExp]> = [
    [["build", "--format", "html"], /--format.*html.*invalid|Allowed choices/],
    [["build", "--bogus"], /unknown option '--bogus'/],
    [["build", "--root", "no/such/dir"], /--root no\/such\/dir: no such directory/],
    [["frobnicate"], /unknown command 'frobnicate'/],
    [["build", "--changed", "no-such-ref"], /--changed no-such-ref: git said/],
  ];
  for (const [args, message] of cases) {
    const { status, stdout, stderr } = await runMain(args, { cwd: root });
    assert.is(status, 2, args.join(" "));
    assert.match(stderr, message);
    assert.not.match(stderr, /\n\s+at /, "no stack trace");
    assert.is(stdout, "");
  }
});

test("--staged outside a git repository is a usage error", async () => {
  const root = materialize("configured", { git: false });
  const { status, stderr } = await runMain(["build", "--staged"], { cwd: root });
  assert.is(status, 2);
  assert.match(stderr, /--staged needs a git repository/);
});

test("no command prints the help on stderr and exits 2; --help and --version exit 0", async () => {
  const none = await runMain([]);
  assert.is(none.status, 2);
  assert.match(none.stderr, /Usage: ctxinject/);
  const help = await runMain(["build", "--help"]);
  assert.is(help.status, 0);
  assert.match(help.stdout, /--files <file...>/);
  const version = await runMain(["--version"]);
  assert.is(version.status, 0);
  assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
});

test("a config with an unknown key exits 2 naming the file and the key", async () => {
  const root = materialize("config-unknown-key");
  const { status, stderr, stdout } = await runMain(["build"], { cwd: root });
  assert.is(status, 2);
  assert.match(stderr, /\.ctxinjectrc\.json: unknown key "formatt"/);
  assert.is(stdout, "");
});

test("a config with a wrong type exits 2 naming the file, key and expected type", async () => {
  const root = materialize("config-wrong-type");
  const { status, stderr } = await runMain(["build"], { cwd: root });
  assert.is(status, 2);
  assert.match(stderr, /\.ctxinjectrc\.yaml: "agents\.files" must be a list of strings, got string "AGENTS\.md"/);
});

test("explain is colored only when asked by FORCE_COLOR, and plain under NO_COLOR or a pipe", async () => {
  const root = materialize("monorepo");
  assert.not.match((await runMain(["explain"], { cwd: root })).stdout, /\u001b\[/);
  assert.not.match((await runMain(["explain"], { cwd: root, env: { NO_COLOR: undefined } })).stdout, /\u001b\[/);
  assert.match((await runMain(["explain"], { cwd: root, env: { NO_COLOR: undefined, FORCE_COLOR: "1" } })).stdout, /\u001b\[/);
});

test.run();
