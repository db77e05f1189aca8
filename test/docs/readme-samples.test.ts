import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

// The README's "one-minute run" shows what two commands print on the bundled fixture. A sample a user pastes and
// then cannot reproduce is worse than none: every line it shows must be a line the command prints today (samples
// are abridged, so lines may be left out, and "…" stands for what was).

const readme = readFileSync(join(REPO, "README.md"), "utf8");

/** Each indented `$ ctxinject …` sample: its command and the lines shown under it, up to the next blank-line gap. */
function samples(): Array<{ args: string[]; lines: string[] }> {
  const out: Array<{ args: string[]; lines: string[] }> = [];
  const blocks = readme.split(/\n(?! {4}|\n {4})/);
  for (const block of blocks) {
    const lines = block
      .split("\n")
      .filter((l) => l.startsWith("    "))
      .map((l) => l.slice(4));
    const head = lines[0];
    if (head === undefined || !head.startsWith("$ ctxinject ")) continue;
    out.push({ args: head.slice("$ ctxinject ".length).split(/\s+/), lines: lines.slice(1) });
  }
  return out;
}

test("the README has the build and explain samples this test reads", () => {
  const commands = samples().map((s) => s.args[0]);
  assert.ok(commands.includes("build") && commands.includes("explain"), `samples found: ${commands.join(", ")}`);
});

test("every line of the README's samples is printed by that command on the bundled fixture, in the same order", async () => {
  for (const { args, lines } of samples()) {
    const run = await runMain(args, { cwd: REPO, env: { CTXINJECT_HOOK_SERVER: "0", NO_COLOR: "1" } });
    assert.is(run.status, 0, run.stderr);
    const printed = run.stdout.split("\n").map((l) => l.trimEnd());
    let at = 0;
    for (const line of lines.map((l) => l.trimEnd())) {
      if (line === "" || line === "…") continue;
      const found = printed.indexOf(line, at);
      assert.ok(found >= 0, `\`ctxinject ${args.join(" ")}\` no longer prints, in this order: ${JSON.stringify(line)}`);
      at = found + 1;
    }
  }
});

test.run();
