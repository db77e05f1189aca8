import { test } from "uvu";
import * as assert from "uvu/assert";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { git } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

// `init --opencode` / `init --kilo` install the host's plugin package with npm. A repository controls its config
// folder (.opencode/package.json, its lock, its .npmrc) and, when ctxinject runs through npx, a node_modules/.bin on
// PATH and npm_config_* variables: none of it may make init run the repository's code. npm here is a fake that
// records how it was asked to run; nothing reaches a registry.

const { folder, write } = tempFolders(test);

const script = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, 0o755);
};

const MARKER = "REPOSITORY-CODE-RAN";

/**
 * A repository with `files`, its own `node_modules/.bin/npm` and `node` (which leave the marker), a root .npmrc,
 * and the user's npm: a fake on a PATH folder of its own that records its arguments, folder and environment.
 */
function setUp(files: Record<string, string>) {
  const root = folder("repo");
  write(root, { "AGENTS.md": "# Project\n", ".npmrc": "registry=http://127.0.0.1:9/\n", ...files });
  git(root, "init", "-q");
  const marker = join(root, MARKER);
  for (const name of ["npm", "node"]) script(join(root, "node_modules/.bin", name), `#!/bin/sh\necho "$0 $*" >> '${marker}'\n`);
  const userBin = folder("user-bin");
  const record = join(userBin, "record.json");
  script(
    join(userBin, "npm"),
    `#!/bin/sh\n'${process.execPath}' -e 'require("fs").appendFileSync(process.argv[1], JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd(), env: process.env }) + "\\n")' '${record}' "$@"\n`,
  );
  // What `npx ctxinject init …` run in the repository hands down: the project's .bin first, its .npmrc as variables.
  const env = {
    PATH: [join(root, "node_modules/.bin"), userBin, "/usr/bin", "/bin"].join(delimiter),
    npm_config_registry: "http://127.0.0.1:9/",
    npm_config_ignore_scripts: "false",
    npm_command: "exec",
  };
  const calls = () =>
    existsSync(record)
      ? readFileSync(record, "utf8")
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line) as { argv: string[]; cwd: string; env: Record<string, string> })
      : [];
  return { root, marker, env, calls };
}

const POSTINSTALL = JSON.stringify({
  name: "plugins",
  scripts: { postinstall: `node -e "require('fs').writeFileSync('../${MARKER}', 'postinstall')"` },
  dependencies: { helper: "file:../evil" },
});

for (const [host, dir] of [
  ["opencode", ".opencode"],
  ["kilo", ".kilo"],
] as const) {
  test(`init --${host} runs no npm over a committed ${dir}/package.json with a postinstall and a file: dependency, and says why naming the file`, async () => {
    const { root, marker, env, calls } = setUp({
      [`${dir}/package.json`]: POSTINSTALL,
      "evil/package.json": JSON.stringify({ name: "helper", scripts: { install: "touch ../REPOSITORY-CODE-RAN" } }),
    });
    const out = await runMain(["init", `--${host}`], { cwd: root, env });
    assert.is(out.status, 0, out.stderr);
    assert.not.ok(existsSync(marker), `repository code ran: ${existsSync(marker) ? readFileSync(marker, "utf8") : ""}`);
    assert.equal(calls(), [], "npm was run over the repository's package.json");
    assert.match(out.stderr, `npm not run: ${dir}/package.json has scripts (postinstall)`);
  });
}

test("init --opencode refuses a file:, git or URL dependency even without scripts, a .npmrc in the folder, and a lock that takes a package from outside the registry", async () => {
  const cases: Array<[Record<string, string>, string]> = [
    [
      { ".opencode/package.json": JSON.stringify({ dependencies: { a: "file:../evil" } }) },
      ".opencode/package.json's dependencies takes a from outside the registry",
    ],
    [{ ".opencode/package.json": JSON.stringify({ dependencies: { a: "github:evil/a" } }) }, "takes a from outside the registry"],
    [{ ".opencode/package.json": JSON.stringify({ optionalDependencies: { a: "evil/a#main" } }) }, "optionalDependencies takes a"],
    [{ ".opencode/package.json": JSON.stringify({ dependencies: { a: "https://127.0.0.1:9/a.tgz" } }) }, "takes a from outside the registry"],
    [{ ".opencode/package.json": JSON.stringify({ overrides: { zod: "file:../evil" } }) }, "overrides.zod is not a registry version"],
    [{ ".opencode/package.json": "{}", ".opencode/.npmrc": "ignore-scripts=false\n" }, ".opencode/.npmrc configures npm there"],
    [
      {
        ".opencode/package-lock.json": JSON.stringify({
          lockfileVersion: 3,
          packages: { "": {}, "node_modules/a": { resolved: "git+ssh://git@127.0.0.1/evil.git#abc" } },
        }),
      },
      ".opencode/package-lock.json takes node_modules/a from outside the registry",
    ],
  ];
  for (const [files, said] of cases) {
    const { root, marker, env, calls } = setUp(files);
    const out = await runMain(["init", "--opencode"], { cwd: root, env });
    assert.is(out.status, 0, out.stderr);
    assert.not.ok(existsSync(marker), "repository code ran");
    assert.equal(calls(), [], `npm ran for ${JSON.stringify(files)}`);
    assert.match(out.stderr, said);
  }
});

test("init --opencode stops at a committed package-lock.json that is no JSON object, naming it, and runs no npm", async () => {
  for (const [text, said] of [
    ["{ not json", "package-lock.json: not valid JSON"],
    ["[]", "package-lock.json: expected a JSON object"],
  ] as const) {
    const { root, marker, env, calls } = setUp({ ".opencode/package-lock.json": text });
    const out = await runMain(["init", "--opencode"], { cwd: root, env });
    assert.is(out.status, 2, out.stderr);
    assert.match(out.stderr, said);
    assert.not.match(out.stderr, /\n\s+at /, "no stack");
    assert.not.ok(existsSync(marker), "repository code ran");
    assert.equal(calls(), [], "npm ran");
  }
});

test("where npm runs, it is the user's npm (not the repository's node_modules/.bin), with --ignore-scripts, in the folder, without the npm_config_* variables npx passed down", async () => {
  // A registry-only package.json the repository wrote, and none at all: both are installed.
  for (const files of [{}, { ".opencode/package.json": JSON.stringify({ dependencies: { zod: "^3.22.0", alias: "npm:@scope/thing@~1.2" } }) }] as Array<
    Record<string, string>
  >) {
    const { root, marker, env, calls } = setUp(files);
    const out = await runMain(["init", "--opencode"], { cwd: root, env });
    assert.is(out.status, 0, out.stderr);
    assert.not.ok(existsSync(marker), `the repository's npm or node ran: ${existsSync(marker) ? readFileSync(marker, "utf8") : ""}`);
    const [call, ...more] = calls();
    assert.ok(call, `the user's npm was not run: ${out.stderr}`);
    assert.equal(more, []);
    assert.equal(call.argv.slice(0, 3), ["install", "--prefix", join(root, ".opencode")]);
    assert.ok(call.argv.includes("--ignore-scripts"), call.argv.join(" "));
    assert.is(call.cwd, join(root, ".opencode"));
    assert.equal(
      Object.keys(call.env).filter((key) => /^npm_config_/i.test(key)),
      [],
    );
    assert.not.match(call.env.PATH ?? "", "node_modules/.bin");
    assert.match(out.stderr, "installed opencode's plugin package");
  }
});

test.run();
