import { test } from "uvu";
import * as assert from "uvu/assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

test.after(cleanup);

const PROMPT = "analyze why the build is slow";

test("by default a prompt that says analyze or search adds no mode text, and explain lists no mode", async () => {
  const root = materialize("prompt-routing");
  const built = await runMain(["build"], { cwd: root, input: PROMPT });
  assert.is(built.status, 0, built.stderr);
  assert.not.match(built.stdout, "ANALYZE MODE");
  assert.not.match((await runMain(["build"], { cwd: root, input: "search the codebase for uses of fetchUser" })).stdout, "SEARCH MODE");
  const explained = JSON.parse((await runMain(["explain", "--json"], { cwd: root, input: PROMPT })).stdout) as { candidates: Array<{ source: string }> };
  assert.equal(
    explained.candidates.filter((c) => c.source === "keyword-detector"),
    [],
  );
});

test("ultrawork still fires by default, and explain lists it only when it fires", async () => {
  const root = materialize("prompt-routing");
  assert.match((await runMain(["build"], { cwd: root, input: "ulw fix the flaky login test" })).stdout, "ULTRAWORK MODE");
  const quiet = JSON.parse((await runMain(["explain", "--json"], { cwd: root, input: "fix the flaky login test" })).stdout) as {
    candidates: Array<{ id: string }>;
  };
  assert.not.ok(quiet.candidates.some((c) => c.id === "ultrawork"));
});

test("the config turns analyze on; a configured mode is listed by explain even when it does not fire", async () => {
  const root = materialize("prompt-routing");
  writeFileSync(join(root, ".ctxinjectrc.json"), JSON.stringify({ keywords: { analyze: {}, search: {} } }));
  assert.match((await runMain(["build"], { cwd: root, input: PROMPT })).stdout, "ANALYZE MODE");
  const explained = JSON.parse((await runMain(["explain", "--json"], { cwd: root, input: PROMPT })).stdout) as {
    candidates: Array<{ id: string; status: string }>;
  };
  const modes = Object.fromEntries(explained.candidates.filter((c) => ["analyze", "search"].includes(c.id)).map((c) => [c.id, c.status]));
  assert.equal(modes, { analyze: "included", search: "unmatched" });
});

test.run();
