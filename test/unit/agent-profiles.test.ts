import { test } from "uvu";
import * as assert from "uvu/assert";
import { loadsThroughAnyPath, type LoadedContext } from "../../src/core/agents/profile.js";
import { claudeCode } from "../../src/core/agents/claude-code.js";
import { copilot } from "../../src/core/agents/copilot.js";
import { cursor } from "../../src/core/agents/cursor.js";
import { agentName } from "../../src/hosts/index.js";
import { kiro } from "../../src/core/agents/kiro.js";
import { codex, codexProfile } from "../../src/core/agents/codex.js";
import { geminiCli, geminiCliProfile } from "../../src/core/agents/gemini-cli.js";
import { opencode, opencodeProfile } from "../../src/core/agents/opencode.js";
import { makeCandidate } from "../../src/core/sources/source.js";
import { approxTokens } from "../../src/core/tokens.js";

const agentFile = (path: string) =>
  makeCandidate({ source: "directory-agents", id: path, priority: "normal", kind: "directory", path, content: "text", countTokens: approxTokens });
const context = (present: string[], workingFolder = "", reads: string[] = []): LoadedContext => ({
  present: new Set(present),
  workingFolder,
  reads,
  bytesOf: () => 100,
});
const loads = (path: string, ctx: LoadedContext) => opencode.loadsItself(agentFile(path), ctx) !== null;

test("opencode at start: AGENTS.md from the working folder up to the top, every one on that path", () => {
  const ctx = context(["AGENTS.md", "apps/AGENTS.md", "apps/web/AGENTS.md", "apps/web/src/AGENTS.md", "lib/AGENTS.md"], "apps/web");
  assert.ok(loads("AGENTS.md", ctx));
  assert.ok(loads("apps/AGENTS.md", ctx));
  assert.ok(loads("apps/web/AGENTS.md", ctx));
  assert.not.ok(loads("apps/web/src/AGENTS.md", ctx), "below the working folder: only on a read");
  assert.not.ok(loads("lib/AGENTS.md", ctx), "off the path");
});

test("opencode at start: CLAUDE.md only when no AGENTS.md is on the path, then CONTEXT.md", () => {
  assert.ok(loads("CLAUDE.md", context(["CLAUDE.md"])));
  assert.not.ok(loads("CLAUDE.md", context(["CLAUDE.md", "AGENTS.md"])));
  assert.ok(loads("CONTEXT.md", context(["CONTEXT.md", "docs/AGENTS.md"])), "an AGENTS.md off the path does not count");
});

test("opencode's read tool: the first of AGENTS.md, CLAUDE.md, CONTEXT.md in each folder below the working folder on the read path", () => {
  const present = ["AGENTS.md", "pkg/CLAUDE.md", "pkg/AGENTS.md", "pkg/sub/CLAUDE.md"];
  const read = context(present, "", ["pkg/sub/x.ts"]);
  assert.ok(loads("pkg/AGENTS.md", read));
  assert.not.ok(loads("pkg/CLAUDE.md", read), "AGENTS.md comes first in that folder");
  assert.ok(loads("pkg/sub/CLAUDE.md", read));
  assert.not.ok(loads("pkg/AGENTS.md", context(present)), "no read, nothing nested");
  assert.not.ok(opencode.loadsItself({ ...agentFile("pkg/AGENTS.md"), source: "rules-injector" }, read), "only agent files");
});

test("Codex: the first of AGENTS.override.md and AGENTS.md per folder, root to working folder, within 32 KiB root first", () => {
  const sizes: Record<string, number> = {
    "AGENTS.md": 20_000,
    "app/AGENTS.override.md": 10_000,
    "app/AGENTS.md": 5,
    "app/web/AGENTS.md": 4_000,
    "app/web/src/AGENTS.md": 10,
  };
  const ctx: LoadedContext = { present: new Set(Object.keys(sizes)), workingFolder: "app/web", reads: [], bytesOf: (p) => sizes[p] ?? 0 };
  const codexLoads = (path: string) => codex.loadsItself(agentFile(path), ctx) !== null;
  assert.ok(codexLoads("AGENTS.md"));
  assert.ok(codexLoads("app/AGENTS.override.md"));
  assert.not.ok(codexLoads("app/AGENTS.md"), "the override wins in that folder");
  assert.not.ok(codexLoads("app/web/AGENTS.md"), "20,000 + 10,000 + 4,000 bytes: past 32 KiB, cut");
  assert.not.ok(codexLoads("app/web/src/AGENTS.md"), "below the working folder");
  assert.not.ok(
    codex.loadsItself({ ...agentFile("AGENTS.md"), imports: [{ path: "docs/a.md", children: [] } as never] }, ctx),
    "imports Codex would not expand",
  );
});

test("Gemini CLI with context.fileName naming AGENTS.md loads AGENTS.md too, and says which setting made it", () => {
  const ctx = context(["AGENTS.md", "GEMINI.md", "pkg/AGENTS.md"], "", ["pkg/x.ts"]);
  assert.is(geminiCli.loadsItself(agentFile("AGENTS.md"), ctx), null, "by default it reads GEMINI.md only");
  const configured = geminiCliProfile({ contextFileNames: ["AGENTS.md", "GEMINI.md"], from: ".gemini/settings.json" });
  assert.match(configured.loadsItself(agentFile("AGENTS.md"), ctx) ?? "", "context.fileName in .gemini/settings.json");
  assert.ok(configured.loadsItself(agentFile("GEMINI.md"), ctx));
  assert.match(configured.loadsItself(agentFile("pkg/AGENTS.md"), ctx) ?? "", "just-in-time");
  assert.is(configured.loadsItself(agentFile("CLAUDE.md"), context(["CLAUDE.md"])), null);
});

test("Codex with fallback names takes the first name per folder, and its own byte budget", () => {
  const sizes: Record<string, number> = { "CLAUDE.md": 30_000, "app/AGENTS.md": 10, "app/CLAUDE.md": 10, "app/web/CLAUDE.md": 5_000 };
  const ctx: LoadedContext = { present: new Set(Object.keys(sizes)), workingFolder: "app/web", reads: [], bytesOf: (p) => sizes[p] ?? 0 };
  assert.is(codex.loadsItself(agentFile("CLAUDE.md"), ctx), null, "not a name Codex tries by default");
  const fallback = codexProfile({ fallbackFileNames: ["CLAUDE.md"], from: "config.toml" });
  assert.match(fallback.loadsItself(agentFile("CLAUDE.md"), ctx) ?? "", "as config.toml sets it");
  assert.is(fallback.loadsItself(agentFile("app/CLAUDE.md"), ctx), null, "AGENTS.md comes first in that folder");
  assert.is(fallback.loadsItself(agentFile("app/web/CLAUDE.md"), ctx), null, "30,000 + 10 + 5,000 bytes: past 32 KiB");
  assert.ok(codexProfile({ fallbackFileNames: ["CLAUDE.md"], maxBytes: 65_536 }).loadsItself(agentFile("app/web/CLAUDE.md"), ctx), "a larger budget keeps it");
});

test("opencode's instructions: a relative path or glob is looked for from the working folder up to the top", () => {
  const rule = (path: string) =>
    makeCandidate({ source: "rules-injector", id: path, priority: "normal", kind: "always", path, content: "text", countTokens: approxTokens });
  const configured = opencodeProfile({ instructions: ["CONVENTIONS.md", ".cursor/rules/*.mdc", "/etc/outside.md"], from: "opencode.json" });
  const ctx = context(["CONVENTIONS.md", "apps/web/CONVENTIONS.md", "lib/CONVENTIONS.md"], "apps/web");
  assert.match(
    configured.loadsItself(rule(".cursor/rules/style.mdc"), ctx) ?? "",
    "opencode loads .cursor/rules/*.mdc at start (instructions in opencode.json)",
  );
  assert.ok(configured.loadsItself(rule("CONVENTIONS.md"), ctx));
  assert.ok(configured.loadsItself(rule("apps/web/CONVENTIONS.md"), ctx));
  assert.is(configured.loadsItself(rule("lib/CONVENTIONS.md"), ctx), null, "off the path from the working folder up");
  assert.is(configured.loadsItself(rule(".cursor/rules/deep/x.mdc"), ctx), null, "* stays in one folder");
  assert.is(opencode.loadsItself(rule(".cursor/rules/style.mdc"), ctx), null, "without instructions, no rules folders");
});

// Agents' own skills (issue 30 item 2): what each real CLI sent of a repository's skills in test/hosts probes
// (Claude Code 2.1.330, Codex 0.169.0, Gemini CLI 0.61.0, opencode 1.18.33), and Copilot's and Kiro's documentation.
const skill = (path: string) =>
  makeCandidate({ source: "skills", id: path, priority: "normal", kind: "agent-requested", path, content: "Skill", countTokens: approxTokens });
const listed = (
  profile: { loadsItself: (c: ReturnType<typeof skill>, ctx: LoadedContext) => string | null },
  path: string,
  workingFolder = "",
  reads: string[] = [],
) => profile.loadsItself(skill(path), context([], workingFolder, reads)) !== null;

test("each agent lists the skills of its own folders itself, from the folders it looks in", () => {
  const cases: Array<[string, typeof claudeCode, string, string, boolean]> = [
    ["claude-code", claudeCode, ".claude/skills/a/SKILL.md", "", true],
    ["claude-code", claudeCode, ".claude/skills/a/SKILL.md", "pkg", true],
    ["claude-code", claudeCode, "pkg/.claude/skills/a/SKILL.md", "pkg", true],
    ["claude-code", claudeCode, "pkg/.claude/skills/a/SKILL.md", "", false],
    ["claude-code", claudeCode, ".agents/skills/a/SKILL.md", "", false],
    ["codex", codex, ".agents/skills/a/SKILL.md", "pkg", true],
    ["codex", codex, "pkg/.agents/skills/a/SKILL.md", "pkg", true],
    ["codex", codex, "pkg/.agents/skills/a/SKILL.md", "", false],
    ["codex", codex, ".claude/skills/a/SKILL.md", "", false],
    ["gemini-cli", geminiCli, ".agents/skills/a/SKILL.md", "", true],
    ["gemini-cli", geminiCli, ".agents/skills/a/SKILL.md", "pkg", false],
    ["gemini-cli", geminiCli, "pkg/.agents/skills/a/SKILL.md", "pkg", true],
    ["gemini-cli", geminiCli, ".claude/skills/a/SKILL.md", "", false],
    ["opencode", opencode, ".claude/skills/a/SKILL.md", "pkg", true],
    ["opencode", opencode, "pkg/.agents/skills/a/SKILL.md", "pkg", true],
    ["opencode", opencode, ".github/skills/a/SKILL.md", "", false],
    ["copilot", copilot, ".github/skills/a/SKILL.md", "", true],
    ["copilot", copilot, ".claude/skills/a/SKILL.md", "", true],
    ["copilot", copilot, ".agents/skills/a/SKILL.md", "", true],
    ["copilot", copilot, ".kiro/skills/a/SKILL.md", "", false],
    ["kiro", kiro, ".kiro/skills/a/SKILL.md", "", true],
    ["kiro", kiro, ".claude/skills/a/SKILL.md", "", false],
    ["cursor", cursor, ".claude/skills/a/SKILL.md", "", false],
  ];
  for (const [name, profile, path, folder, expected] of cases)
    assert.is(listed(profile, path, folder), expected, `${name}: ${path} from ${folder || "the root"}`);
  assert.ok(listed(claudeCode, "pkg/.claude/skills/a/SKILL.md", "", ["pkg/src/x.ts"]), "Claude Code: a nested .claude/skills once it works on files below it");
  assert.match(claudeCode.loadsItself(skill(".claude/skills/a/SKILL.md"), context([]))!, "name and description; it reads the body when it uses one");
});

test("a file reached through a symlink is loaded when the agent loads any of its paths", () => {
  const candidate = { ...skill(".agents/skills/a/SKILL.md"), aliases: [".claude/skills/a/SKILL.md"] };
  assert.is(claudeCode.loadsItself(candidate, context([])), null, "by its own path Claude Code does not read it");
  assert.match(loadsThroughAnyPath(claudeCode.loadsItself, candidate, context([]))!, "(as .claude/skills/a/SKILL.md, the same file)");
});

test("agents' short names are their profiles' names, in any case; unknown names are none", () => {
  assert.is(agentName("claude"), "claude-code");
  assert.is(agentName("Claude-Code"), "claude-code");
  assert.is(agentName("gemini"), "gemini-cli");
  assert.is(agentName("kiro"), "kiro");
  assert.is(agentName("codex"), "codex");
  assert.is(agentName("claud"), undefined);
  assert.is(agentName("constructor"), undefined);
});

test.run();
