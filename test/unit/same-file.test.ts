import { test } from "uvu";
import * as assert from "uvu/assert";
import { oneFilePerRealPath } from "../../src/core/same-file.js";

test("paths that reach one file are one: the real path names it when it was found too, else the first path", () => {
  const { kept, aliasesOf } = oneFilePerRealPath([
    { path: ".agents/skills/a/SKILL.md", text: "a" },
    { path: ".claude/skills/a/SKILL.md", text: "a", realPath: ".agents/skills/a/SKILL.md" },
    { path: "pkg/x/AGENTS.md", text: "x", realPath: "shared/AGENTS.md" },
    { path: "pkg/y/AGENTS.md", text: "x", realPath: "shared/AGENTS.md" },
    { path: "README.md", text: "r" },
  ]);
  assert.equal(
    kept.map((f) => f.path),
    [".agents/skills/a/SKILL.md", "pkg/x/AGENTS.md", "README.md"],
  );
  assert.equal(
    [...aliasesOf],
    [
      [".agents/skills/a/SKILL.md", [".claude/skills/a/SKILL.md"]],
      ["pkg/x/AGENTS.md", ["pkg/y/AGENTS.md"]],
    ],
  );
});

test("a tree without links is handed back as it is", () => {
  const files = [{ path: "AGENTS.md", text: "a" }];
  const { kept, aliasesOf } = oneFilePerRealPath(files);
  assert.is(kept, files);
  assert.is(aliasesOf.size, 0);
});

test.run();
