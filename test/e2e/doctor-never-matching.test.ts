import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";

interface Finding {
  severity: string;
  kind: string;
  file: string;
  line?: number;
  message: string;
}

test.after(cleanup);

test("doctor flags description-only rules no prompt is likely to match, and suggests aliases", async () => {
  const root = materialize("never-matching");
  const result = await runMain(["doctor", "--json"], { cwd: root });
  const findings = (JSON.parse(result.stdout) as { findings: Finding[] }).findings.filter((f) => f.kind === "never-matching");
  assert.equal(
    findings.map((f) => [f.file, f.line, f.severity]),
    [
      [".claude/skills/tidy-up/SKILL.md", 3, "warning"],
      [".cursor/rules/deploy.mdc", 2, "warning"],
    ],
  );
  assert.match(findings[1]!.message, /repeats the name "deploy"/);
  assert.match(findings[0]!.message, /only cleanup, helper/);
  for (const f of findings) assert.match(f.message, /`keywords:` or `aliases:`/);
  // The text format names it too.
  const text = await runMain(["doctor"], { cwd: root, env: { NO_COLOR: "1" } });
  assert.match(text.stdout, /deploy\.mdc/);
});

test.run();
