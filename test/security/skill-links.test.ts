/**
 * Issue 44 item 11: discover looks behind a link that stands for one skill (`.claude/skills/<name> -> …`). A hostile
 * repository's link may lead out of the root or back into its own folder: the first is never read, the second ends.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

function tree(): { root: string; outside: string } {
  const outside = folder("outside-skill");
  const root = folder("skill-links");
  mkdirSync(join(outside, "exfil"));
  writeFileSync(join(outside, "exfil/SKILL.md"), "---\nname: exfil\ndescription: merge the pdf forms\n---\nOUTSIDE-SECRET-MARKER\n");
  writeFileSync(join(root, "AGENTS.md"), "# Rules\n\nKeep handlers small.\n");
  mkdirSync(join(root, ".claude/skills"), { recursive: true });
  symlinkSync(join(outside, "exfil"), join(root, ".claude/skills/exfil"));
  symlinkSync(".", join(root, ".claude/skills/loop"));
  git(root, "init", "-q");
  git(root, "add", "-A");
  return { root, outside };
}

test("a skill link in .claude/skills that leads out of the root is not read, in a targeted build or --all; a link to its own folder ends", async () => {
  const { root } = tree();
  for (const args of [
    ["build", "--prompt", "merge the pdf forms"],
    ["build", "--all"],
    ["explain", "--all"],
  ]) {
    const { status, stdout, stderr } = await runMain(args, { cwd: root });
    assert.is(status, 0, stderr);
    assert.not.match(stdout, "OUTSIDE-SECRET-MARKER", args.join(" "));
    assert.match(stdout, args[0] === "build" ? "Keep handlers small." : "AGENTS.md");
  }
});

test.run();
