import { test } from "uvu";
import * as assert from "uvu/assert";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionStore, stateDir } from "../../src/io/session/session-store.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

const store = () => new SessionStore(folder("store"));

test("the state folder follows CTXINJECT_STATE_DIR, then XDG_STATE_HOME, then the HOME it is given", () => {
  assert.is(stateDir({ CTXINJECT_STATE_DIR: "/x/state" }), "/x/state");
  assert.is(stateDir({ XDG_STATE_HOME: "/y" }), "/y/ctxinject");
  assert.is(stateDir({ HOME: "/home/someone" }), "/home/someone/.local/state/ctxinject");
  assert.match(stateDir({}), /\.local\/state\/ctxinject$/);
});

test("sessions unused for longer than the maximum age are removed; the one in use is kept", async () => {
  const s = store();
  await s.register("old", { source: "x", id: "1", content: "old entry" });
  await s.register("current", { source: "x", id: "1", content: "current entry" });
  const later = Date.now() + 3 * 3_600_000;
  const removed = await s.collectGarbage(3_600_000, later, "current");
  assert.equal(removed, ["old"]);
  assert.equal(
    (await s.sessions()).map((x) => x.id),
    ["current"],
  );
});

test("builds look for expired sessions at most once an hour, whichever process builds", async () => {
  const s = store();
  const hour = 3_600_000;
  const t0 = Date.now();
  await s.register("a", { source: "x", id: "1", content: "a" });
  assert.equal(await s.collectGarbageOccasionally(hour, hour, t0 + 2 * hour), ["a"]);
  await s.register("b", { source: "x", id: "1", content: "b" });
  assert.equal(await new SessionStore(s.dir).collectGarbageOccasionally(hour, hour, t0 + 2.5 * hour), [], "ran half an hour ago");
  assert.equal(await s.collectGarbageOccasionally(hour, hour, t0 + 3.5 * hour), ["b"]);
});

test("a temp file left by a crashed writer is ignored by readers and removed once old", async () => {
  const s = store();
  await s.register("s", { source: "x", id: "1", content: "kept" });
  await s.recordInjected("s", [{ key: "a.md", hash: "1" }]);
  const pending = join(s.dir, "sessions-2", "s", "pending");
  writeFileSync(join(pending, ".tmp-99999-dead.json"), '{"half": ');
  assert.equal(
    (await s.pending("s")).map((e) => e.content),
    ["kept"],
  );
  assert.ok((await s.injected("s")).has("a.md", "1"));
  assert.equal(await s.injectedKeys("s"), ["a.md"]);
  await s.collectGarbage(24 * 3_600_000, Date.now() + 2 * 3_600_000);
  assert.equal(
    readdirSync(pending).filter((n) => n.startsWith(".")),
    [],
  );
  assert.equal(
    (await s.pending("s")).map((e) => e.content),
    ["kept"],
  );
});

test("a session's writes make no folder or file but the session's folders and the written file", async () => {
  const s = store();
  await s.recordInjected("s", [{ key: "a.md", hash: "1" }]);
  await s.recordInjected("s", [{ key: "b.md", hash: "2" }]);
  assert.equal(readdirSync(join(s.dir, "sessions-2", "s")), ["seen"]);
  assert.is(readdirSync(join(s.dir, "sessions-2", "s", "seen")).length, 2);
  const [summary] = await s.sessions();
  assert.is(summary!.injected, 2);
  assert.ok(Math.abs(Date.parse(summary!.updated) - Date.now()) < 60_000, summary!.updated);
});

test("a text given again with other content replaces the session's record of it; the old content may come back", async () => {
  const s = store();
  await s.recordInjected("s", [{ key: "a.md", hash: "1" }]);
  await s.recordInjected("s", [{ key: "a.md", hash: "2" }]);
  const seen = await s.injected("s");
  assert.ok(seen.has("a.md", "2"));
  assert.not.ok(seen.has("a.md", "1"));
  assert.not.ok(seen.hasKey("b.md"));
});

test("of two claims on one text only the first gets it; a released claim can be taken again", async () => {
  const s = store();
  const first = s.claimInjected("s", [
    { key: "a.md", hash: "1" },
    { key: "b.md", hash: "1" },
  ]);
  assert.equal(first.lost, []);
  const second = s.claimInjected("s", [
    { key: "a.md", hash: "1" },
    { key: "c.md", hash: "1" },
  ]);
  assert.equal(second.lost, [{ key: "a.md", hash: "1" }]);
  first.release();
  assert.equal(s.claimInjected("s", [{ key: "a.md", hash: "1" }]).lost, []);
});

test.run();
