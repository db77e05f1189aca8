import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanup, materialize, REPO, runCli } from "../helpers/cli.js";

// The bin starts the bundle from V8's code cache; these run a private copy of bin/ and dist/bundle/ so the cache
// can be spoiled without touching the one the other tests use.
const copies: string[] = [];
test.after(() => {
  cleanup();
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function installedCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "ctxinject-install-"));
  copies.push(dir);
  cpSync(join(REPO, "bin"), join(dir, "bin"), { recursive: true });
  cpSync(join(REPO, "dist/bundle"), join(dir, "dist/bundle"), { recursive: true, preserveTimestamps: true });
  cpSync(join(REPO, "package.json"), join(dir, "package.json"));
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"));
  return dir;
}

function runCopy(install: string, cwd: string, input: string) {
  return spawnSync(process.execPath, [join(install, "bin/ctxinject.js"), "build", "--tokenizer", "o200k"], {
    cwd,
    input,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", CTXINJECT_DEBUG: "1" },
  });
}

const PROMPT = "fix the retry in packages/api/src/handlers/user.ts\n";

test("the build's code cache is accepted, and a spoiled or stale one changes nothing but the speed", () => {
  const root = materialize("monorepo");
  const expected = runCli(["build", "--tokenizer", "o200k"], { cwd: root, input: PROMPT });
  assert.is(expected.status, 0);
  const install = installedCopy();
  const cache = join(install, "dist/bundle/main.cjs.cache");

  const fresh = runCopy(install, root, PROMPT);
  assert.is(fresh.stdout, expected.stdout);
  assert.not.match(fresh.stderr, "code cache", "the cache made by npm run build is used");

  writeFileSync(cache, Buffer.from("not a V8 code cache at all"));
  const spoiled = runCopy(install, root, PROMPT);
  assert.is(spoiled.status, 0);
  assert.is(spoiled.stdout, expected.stdout);
  assert.match(spoiled.stderr, "V8 rejected the code cache");

  utimesSync(cache, new Date(0), new Date(0));
  const stale = runCopy(install, root, PROMPT);
  assert.is(stale.stdout, expected.stdout);
  assert.match(stale.stderr, "no code cache newer than the bundle");
});

test("a copy without its built bundle says to build it, without a stack trace", () => {
  const install = installedCopy();
  rmSync(join(install, "dist"), { recursive: true });
  const result = runCopy(install, REPO, "");
  assert.is(result.status, 70);
  assert.match(result.stderr, "run npm run build");
  assert.not.match(result.stderr, "    at ");
});

test.run();
