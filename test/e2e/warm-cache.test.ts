import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, materialize, runCli } from "../helpers/cli.js";
import { tempFolders } from "../helpers/temp.js";

// The globs and stems a run works out are saved per project in the state folder and reused (src/core/warm.ts).
// Spawned: only the bundle saves them (scripts/bundle.mjs writes the versions they are keyed by; from source, nothing).

const { folder } = tempFolders(test);
test.after(cleanup);

const explain = (root: string, state: string, env: Record<string, string> = {}) =>
  runCli(["explain", "--json", "--files", "src/app.ts", "--prompt", "type-safety for the specs"], { cwd: root, env: { CTXINJECT_STATE_DIR: state, ...env } });
const warmFiles = (state: string) => {
  try {
    return readdirSync(join(state, "warm")).filter((f) => f.endsWith(".json"));
  } catch {
    return [];
  }
};

test("a second run reads what the first saved and gives the same answer, byte for byte", () => {
  const root = materialize("cursor-glob-shapes");
  const state = folder("warm");
  const first = explain(root, state);
  assert.is(first.status, 0, first.stderr);
  const [file] = warmFiles(state);
  assert.ok(file, "a warm file for the project");
  const saved = JSON.parse(readFileSync(join(state, "warm", file!), "utf8"));
  assert.match(saved.key, /^ctxinject@\S+\+[0-9a-f]{12} picomatch@\S+ stemmer@\S+$/);
  assert.ok(saved.globs["b:*.ts"], "the unquoted glob's regexp");
  assert.ok(
    Object.keys(saved.frontmatter).some((raw) => raw.includes("globs: *.ts,*.tsx")),
    "the frontmatter block as it was read",
  );
  // Another file with the same frontmatter block: its warning names that file, from the saved reading.
  writeFileSync(join(root, ".cursor/rules/twin.mdc"), readFileSync(join(root, ".cursor/rules/strict-types.mdc"), "utf8"));
  const second = explain(root, state);
  assert.match(second.stderr, "ctxinject: warning: .cursor/rules/strict-types.mdc:3: frontmatter is not strict YAML");
  assert.match(second.stderr, "ctxinject: warning: .cursor/rules/twin.mdc:3: frontmatter is not strict YAML");
  const fresh = explain(root, folder("warm"));
  assert.is(second.stdout, fresh.stdout, "the same answer as a run with nothing saved");
  assert.is(second.stderr, fresh.stderr);
});

test("a build --all saves nothing, so a tree's worth of rules never ends up in the file every hook reads", () => {
  const root = materialize("cursor-glob-shapes");
  const state = folder("warm");
  const all = runCli(["build", "--all"], { cwd: root, env: { CTXINJECT_STATE_DIR: state } });
  assert.is(all.status, 0, all.stderr);
  assert.equal(warmFiles(state), []);
  explain(root, state);
  const [file] = warmFiles(state);
  const before = readFileSync(join(state, "warm", file!), "utf8");
  assert.is(runCli(["build", "--all"], { cwd: root, env: { CTXINJECT_STATE_DIR: state } }).status, 0);
  assert.is(readFileSync(join(state, "warm", file!), "utf8"), before);
});

test("the saved regexps are what the next run matches with; a damaged file is no cache and no error", () => {
  const root = materialize("cursor-glob-shapes");
  const state = folder("warm");
  const first = explain(root, state);
  const [file] = warmFiles(state);
  const path = join(state, "warm", file!);
  const saved = JSON.parse(readFileSync(path, "utf8"));
  // A regexp that matches nothing in place of *.ts: the next run uses it (so the cache is really read)…
  writeFileSync(path, JSON.stringify({ ...saved, globs: { ...saved.globs, "b:*.ts": ["(?!)", ""] } }));
  const reason = (out: string) => JSON.parse(out).candidates.find((c: { id: string }) => c.id === ".cursor/rules/strict-types.mdc").reason;
  assert.match(reason(first.stdout), /^glob \*\.ts matches src\/app\.ts/);
  // Its globs now miss (its description, which the prompt names, still weighs it: issue 44 item 7).
  assert.match(reason(explain(root, state).stdout), /^no target matches /);
  // …and damaged data (or another version's, or a file far larger than a run writes) is ignored: the answer is
  // worked out again, quietly.
  for (const damaged of [
    "{not json",
    JSON.stringify({ ...saved, globs: { "b:*.ts": ["(", ""] } }),
    JSON.stringify({ ...saved, key: "picomatch@0 stemmer@0", globs: { "b:*.ts": ["(?!)", ""] } }),
    // Another build of ctxinject with the same libraries: its readings may predate a fix in reading or redaction.
    JSON.stringify({ ...saved, key: saved.key.replace(/^ctxinject@\S+/, "ctxinject@0.0.0+000000000000"), globs: { "b:*.ts": ["(?!)", ""] } }),
    JSON.stringify({ ...saved, globs: { "b:*.ts": ["(?!)", ""] }, stems: { padding: "x".repeat(200_000) } }),
  ]) {
    writeFileSync(path, damaged);
    const again = explain(root, state);
    assert.is(again.stdout, first.stdout);
    assert.not.match(again.stderr, "warm");
  }
});

test("a project's file not written for a week is removed when another project's is written", () => {
  const state = folder("warm");
  mkdirSync(join(state, "warm"));
  const old = join(state, "warm", "0123456789abcdef0123456789ab.json");
  const recent = join(state, "warm", "fedcba9876543210fedcba987654.json");
  for (const file of [old, recent]) writeFileSync(file, "{}");
  const eightDaysAgo = (Date.now() - 8 * 24 * 3_600_000) / 1000;
  utimesSync(old, eightDaysAgo, eightDaysAgo);
  assert.is(explain(materialize("cursor-glob-shapes"), state).status, 0);
  const left = warmFiles(state);
  assert.not.ok(left.includes("0123456789abcdef0123456789ab.json"));
  assert.ok(left.includes("fedcba9876543210fedcba987654.json"));
  assert.is(left.length, 2, "the recent one and this project's");
});

test("CTXINJECT_NO_WARM_CACHE=1 saves nothing", () => {
  const root = materialize("cursor-glob-shapes");
  const state = folder("warm");
  assert.is(explain(root, state, { CTXINJECT_NO_WARM_CACHE: "1" }).status, 0);
  assert.equal(warmFiles(state), []);
});

test.run();
