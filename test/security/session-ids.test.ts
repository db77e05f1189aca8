import { test } from "uvu";
import * as assert from "uvu/assert";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { SessionStore, sessionFolderName } from "../../src/io/session/session-store.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

// Issue 29 item 10: a session id comes from the host's event or the command line; whatever it holds, it names one
// folder of its own, within the file system's 255-byte limit, and `sessions` shows it as given.

const { folder } = tempFolders(test);
const IDS = [
  ".".repeat(86),
  "\u{1F600}".repeat(30),
  "\uD800",
  "\uDC00",
  "..",
  ".",
  "/",
  "a/b",
  "../../etc",
  "x".repeat(10_000),
  "ünï ✓",
  "abc-123",
  "3f2c9a4e-1b7d-4c1a-9e1f-0a2b3c4d5e6f~agent~a7",
];

test("every id gets a folder of its own, at most 255 bytes, never . or .., and is listed as it was given", async () => {
  const store = new SessionStore(folder("ids"));
  for (const [i, id] of IDS.entries()) await store.register(id, { source: "test", id: "note", content: `note ${i}` });
  const names = readdirSync(join(store.dir, "sessions-2"));
  assert.is(names.length, IDS.length, "one folder per id: lone surrogates do not collapse into one");
  for (const name of names) {
    assert.ok(Buffer.byteLength(name) <= 255, `${name.length} characters`);
    assert.not.ok(name === "." || name === ".." || name.includes("/"), name);
  }
  assert.equal((await store.sessions()).map((s) => s.id).sort(), [...IDS].sort());
  for (const [i, id] of IDS.entries())
    assert.equal(
      (await store.pending(id)).map((e) => e.content),
      [`note ${i}`],
      JSON.stringify(id.slice(0, 20)),
    );
});

test("a short id of safe characters is its own folder name; an encoded name can never be one", () => {
  assert.is(sessionFolderName("abc-123"), "abc-123");
  assert.is.not(sessionFolderName("\uD800"), sessionFolderName("\uDC00"));
  for (const id of IDS) if (sessionFolderName(id) !== id) assert.match(sessionFolderName(id), /\+[0-9a-f]{28}$/);
  assert.not.match("abc-123", /\+/);
});

test("the CLI registers and lists sessions whose ids are 86 dots or 30 emoji", async () => {
  const state = folder("ids");
  const env = { CTXINJECT_STATE_DIR: state };
  for (const id of [".".repeat(86), "\u{1F600}".repeat(30)]) {
    const r = await runMain(["register", "--session", id, "--source", "test", "--id", "n", "--content", "hello"], { env });
    assert.is(r.status, 0, r.stderr);
  }
  const listed = JSON.parse((await runMain(["sessions", "--json"], { env })).stdout) as { sessions: Array<{ id: string; pending: number }> };
  assert.equal(
    listed.sessions.map((s) => [s.id, s.pending]).sort(),
    [
      [".".repeat(86), 1],
      ["\u{1F600}".repeat(30), 1],
    ].sort(),
  );
});

test.run();
