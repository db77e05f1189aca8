import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, runCli } from "../helpers/cli.js";

// The package builds on `prepack` only (installers of the package get dist/ from the tarball and build nothing), so
// in a fresh clone `npm ci` leaves dist/ missing and bin/ctxinject.js stops with "run npm run build". The README's
// first command is what a newcomer pastes: it must build before it runs the bin.

const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { scripts: Record<string, string> };
const readme = readFileSync(join(REPO, "README.md"), "utf8");
/** The README's first command: its first indented code line. */
const first = /^ {4}(\S.*)$/m.exec(readme)?.[1] ?? "";
const steps = first.split("&&").map((s) => s.trim());

test("installing the package runs no build: the build is on prepack, no install script builds", () => {
  assert.is(pkg.scripts.prepack, "npm run build");
  for (const hook of ["preinstall", "install", "postinstall", "prepare"]) assert.is(pkg.scripts[hook], undefined, `${hook} would run for every installer`);
});

test("the README's first command builds before it runs bin/ctxinject.js in a fresh clone", () => {
  const run = steps.findIndex((s) => s.startsWith("node bin/ctxinject.js"));
  assert.ok(run > 0, `the first command runs the bin: ${first}`);
  // `npm test` and `npm run build` build; `npm ci` does not any more (no prepare script).
  const builds = steps.slice(0, run).some((s) => s === "npm run build" || s === "npm test");
  assert.ok(builds, `README's first command runs the bin with nothing built: ${first}`);
});

test("the README's first command runs clean: no warning on stderr, and the sample under it is its own output", () => {
  const run = steps.find((s) => s.startsWith("node bin/ctxinject.js "));
  const args = run?.slice("node bin/ctxinject.js ".length).split(/\s+/) ?? [];
  const result = runCli(args, { cwd: REPO, env: { CTXINJECT_HOOK_SERVER: "0" } });
  assert.is(result.status, 0, result.stderr);
  // A newcomer's first sight is the output, not a warning from a fixture broken on purpose.
  assert.is(result.stderr, "");
  // The one-minute run shows this command's output (test/docs/readme-samples.test.ts holds each line to it).
  assert.ok(readme.includes(`    $ ctxinject ${args.join(" ")}\n`), `no sample of \`ctxinject ${args.join(" ")}\` in the README`);
});

test("the README's Install section builds in the clone before anything runs or packs it", () => {
  const install = readme.slice(readme.indexOf("## Install\n"), readme.indexOf("\n## ", readme.indexOf("## Install\n") + 1));
  const commands = install
    .split("\n")
    .filter((l) => l.startsWith("    "))
    .flatMap((l) =>
      l
        .replace(/#.*/, "")
        .split("&&")
        .map((s) => s.trim()),
    );
  const installs = commands.indexOf("npm ci");
  const builds = commands.indexOf("npm run build");
  const uses = commands.findIndex((c) => /^(npx ctxinject|node bin\/ctxinject\.js|npm pack)\b/.test(c));
  assert.ok(installs >= 0 && uses >= 0, install);
  // Followed as written without the build, `npx ctxinject init` in a clone exits 70: dist/bundle/main.cjs is missing.
  assert.ok(builds > installs && builds < uses, `Install runs ${commands[uses]} without \`npm run build\` after \`npm ci\``);
});

test.run();
