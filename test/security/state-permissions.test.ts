import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, cleanup, materialize } from "../helpers/cli.js";
import { tempFolders } from "../helpers/temp.js";

// Issue 29 item 9: the state folder holds what sessions were given, project paths and the trust list. Under the
// common umask 022 it was readable by every user of the machine: now folders are 0700 and files 0600.

const { folder } = tempFolders(test);
test.after(cleanup);

/** The CLI under umask 022, as most shells start it. */
function run(args: string[], options: { cwd: string; state: string; input?: string }): { status: number | null; stderr: string } {
  const env = { ...process.env, NO_COLOR: "1", CTXINJECT_HOOK_SERVER: "0", CTXINJECT_STATE_DIR: options.state, CI: "", CTXINJECT_TRUST_ALL: "" };
  const r = spawnSync("sh", ["-c", 'umask 022 && exec "$0" "$@"', process.execPath, BIN, ...args], {
    cwd: options.cwd,
    env,
    input: options.input ?? "",
    encoding: "utf8",
  });
  return { status: r.status, stderr: r.stderr };
}

function everything(dir: string): Array<{ path: string; folder: boolean; mode: number }> {
  const out: Array<{ path: string; folder: boolean; mode: number }> = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const info = lstatSync(path);
    out.push({ path, folder: info.isDirectory(), mode: info.mode & 0o777 });
    if (info.isDirectory()) out.push(...everything(path));
  }
  return out;
}

test("under umask 022 every folder of the state is 0700 and every file 0600: sessions, what they were given, the trust list, the warm cache", () => {
  const base = folder("perms");
  const state = join(base, "state");
  const root = materialize("monorepo");
  const ok = (r: { status: number | null; stderr: string }) => assert.is(r.status, 0, r.stderr);
  ok(run(["register", "--session", "s-1", "--source", "git-hook", "--id", "n", "--content", "A note."], { cwd: root, state }));
  ok(run(["register", "--session", "an id/with separators", "--source", "git-hook", "--id", "n", "--content", "A note."], { cwd: root, state }));
  const event = { session_id: "s-1", cwd: root, hook_event_name: "UserPromptSubmit", prompt: "tidy packages/web/src/components/Button.tsx" };
  ok(run(["hook", "claude"], { cwd: root, state, input: JSON.stringify(event) }));
  const js = materialize("config-js");
  ok(run(["trust"], { cwd: js, state }));
  const found = everything(state);
  const paths = found.map((f) => f.path.slice(state.length + 1));
  for (const want of ["sessions-2", "trusted-configs.json", "warm"]) assert.ok(paths.includes(want), `${want} in ${paths.join(", ")}`);
  assert.ok(
    paths.some((p) => p.includes("/seen/")),
    "what the session was given is recorded",
  );
  assert.is(lstatSync(state).mode & 0o777, 0o700, "the state folder itself");
  for (const f of found) assert.is(f.mode, f.folder ? 0o700 : 0o600, `${f.path} is ${f.mode.toString(8)}`);
});

test("a state folder an earlier version left readable by others is made the user's alone", () => {
  const base = folder("perms");
  const state = join(base, "state");
  mkdirSync(join(state, "sessions", "old"), { recursive: true, mode: 0o755 });
  writeFileSync(join(state, "sessions", "old", "x.json"), "{}", { mode: 0o644 });
  const root = materialize("monorepo");
  const event = { session_id: "s-2", cwd: root, hook_event_name: "UserPromptSubmit", prompt: "hello" };
  assert.is(run(["hook", "claude"], { cwd: root, state, input: JSON.stringify(event) }).status, 0);
  assert.is(lstatSync(state).mode & 0o777, 0o700);
  assert.not.ok(readdirSync(state).includes("sessions"), "the earlier layout's sessions are gone (a clean cut)");
});

test.run();
