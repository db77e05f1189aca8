/**
 * The profiles of the hosts proven in test/hosts (issue 32): what Copilot CLI, Qwen Code, Droid, Cline and Kilo load
 * by themselves, as their real CLIs showed (test/hosts/PROFILES.md), and cursor-agent's from its documentation.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { AGENT_PROFILES, agentName } from "../../src/hosts/index.js";
import type { AgentProfile, LoadedContext } from "../../src/core/agents/profile.js";
import { fileReaders } from "../../src/core/doctor/readers.js";
import { makeCandidate } from "../../src/core/sources/source.js";
import { approxTokens } from "../../src/core/tokens.js";
import type { Candidate, Kind } from "../../src/core/types.js";
import { HOST_VERSIONS } from "../hosts/versions.js";

const profile = (name: string): AgentProfile => AGENT_PROFILES[name]!;
const file = (path: string, source = "directory-agents", kind: Kind = "directory"): Candidate =>
  makeCandidate({ source, id: path, priority: "normal", kind, path, content: "text", countTokens: approxTokens });
const rule = (path: string, kind: Kind = "always") => file(path, "rules-injector", kind);
const skill = (path: string) => file(path, "skills", "agent-requested");
const context = (workingFolder = "", reads: string[] = []): LoadedContext => ({ present: new Set(), workingFolder, reads, bytesOf: () => 100 });
/** The paths of `paths` the agent says it loads itself, in `ctx`. */
const loaded = (name: string, paths: Candidate[], ctx = context()) => paths.filter((c) => profile(name).loadsItself(c, ctx) !== null).map((c) => c.path);

const TREE = ["AGENTS.md", "CLAUDE.md", "GEMINI.md", "QWEN.md", "pkg/AGENTS.md", "pkg/CLAUDE.md", "pkg/GEMINI.md", "pkg/QWEN.md", "lib/AGENTS.md"].map((p) =>
  file(p),
);
const READ = context("", ["pkg/src/x.ts"]);

test("Copilot CLI: AGENTS.md, CLAUDE.md and GEMINI.md from the working folder up; a folder's own once it reads a file below it", () => {
  assert.equal(loaded("copilot-cli", TREE), ["AGENTS.md", "CLAUDE.md", "GEMINI.md"]);
  assert.equal(loaded("copilot-cli", TREE, READ), ["AGENTS.md", "CLAUDE.md", "GEMINI.md", "pkg/AGENTS.md", "pkg/CLAUDE.md", "pkg/GEMINI.md"]);
  assert.equal(loaded("copilot-cli", TREE, context("pkg")), ["AGENTS.md", "CLAUDE.md", "GEMINI.md", "pkg/AGENTS.md", "pkg/CLAUDE.md", "pkg/GEMINI.md"]);
});

test("Copilot CLI: copilot-instructions.md always, a scoped instruction once its applyTo matches a file worked on, the skills of .github, .claude and .agents", () => {
  const cli = profile("copilot-cli");
  assert.ok(cli.loadsItself(rule(".github/copilot-instructions.md"), context()));
  const scoped = rule(".github/instructions/api.instructions.md", "auto");
  assert.ok(cli.loadsItself({ ...scoped, status: "included" }, READ));
  assert.is(cli.loadsItself({ ...scoped, status: "unmatched" }, context()), null, "listed as a table at start, not loaded");
  assert.is(cli.loadsItself(rule(".cursor/rules/a.mdc"), context()), null);
  assert.equal(
    loaded("copilot-cli", [".github/skills/a/SKILL.md", ".claude/skills/a/SKILL.md", ".agents/skills/a/SKILL.md", ".kiro/skills/a/SKILL.md"].map(skill)),
    [".github/skills/a/SKILL.md", ".claude/skills/a/SKILL.md", ".agents/skills/a/SKILL.md"],
  );
});

test("Qwen Code: QWEN.md and AGENTS.md from the working folder up, nothing nested even after a read, skills of .qwen and .agents", () => {
  assert.equal(loaded("qwen-code", TREE), ["AGENTS.md", "QWEN.md"]);
  assert.equal(loaded("qwen-code", TREE, READ), ["AGENTS.md", "QWEN.md"]);
  assert.equal(loaded("qwen-code", TREE, context("pkg")), ["AGENTS.md", "QWEN.md", "pkg/AGENTS.md", "pkg/QWEN.md"]);
  assert.equal(loaded("qwen-code", [".qwen/skills/a/SKILL.md", ".agents/skills/a/SKILL.md", ".claude/skills/a/SKILL.md"].map(skill)), [
    ".qwen/skills/a/SKILL.md",
    ".agents/skills/a/SKILL.md",
  ]);
});

test("Droid: AGENTS.md and CLAUDE.md from the working folder up, a folder's own once it reads a file below it, skills of .factory and .agents", () => {
  assert.equal(loaded("droid", TREE), ["AGENTS.md", "CLAUDE.md"]);
  assert.equal(loaded("droid", TREE, READ), ["AGENTS.md", "CLAUDE.md", "pkg/AGENTS.md", "pkg/CLAUDE.md"]);
  assert.equal(loaded("droid", [".factory/skills/a/SKILL.md", ".agents/skills/a/SKILL.md", ".claude/skills/a/SKILL.md"].map(skill)), [
    ".factory/skills/a/SKILL.md",
    ".agents/skills/a/SKILL.md",
  ]);
});

test("Cline: the root's AGENTS.md and its always-on .clinerules rules only; no nested file, no rule with paths, no skills", () => {
  assert.equal(loaded("cline", TREE, READ), ["AGENTS.md"]);
  assert.equal(loaded("cline", TREE, context("pkg")), ["AGENTS.md"]);
  const rules = [
    rule(".clinerules/style.md"),
    rule(".clinerules/notes.txt"),
    rule(".clinerules/api.md", "auto"),
    rule("pkg/.clinerules/style.md"),
    rule(".cursor/rules/a.mdc"),
  ];
  assert.equal(loaded("cline", rules, READ), [".clinerules/style.md", ".clinerules/notes.txt"]);
  assert.equal(loaded("cline", [".claude/skills/a/SKILL.md", ".agents/skills/a/SKILL.md"].map(skill)), []);
});

test("Kilo: AGENTS.md from the working folder up and on its read tool, never CLAUDE.md beside it; skills of .kilo, .kilocode, .claude and .agents", () => {
  assert.equal(loaded("kilo", TREE), ["AGENTS.md"]);
  assert.equal(loaded("kilo", TREE, READ), ["AGENTS.md", "pkg/AGENTS.md"]);
  const skills = [
    ".kilo/skills/a/SKILL.md",
    ".kilocode/skills/a/SKILL.md",
    ".claude/skills/a/SKILL.md",
    ".agents/skills/a/SKILL.md",
    ".opencode/skills/a/SKILL.md",
  ].map(skill);
  assert.equal(loaded("kilo", skills), [".kilo/skills/a/SKILL.md", ".kilocode/skills/a/SKILL.md", ".claude/skills/a/SKILL.md", ".agents/skills/a/SKILL.md"]);
});

test("cursor-agent: Cursor's rules and AGENTS.md, and the root's CLAUDE.md (the CLI applies it as a rule), not a nested one", () => {
  assert.equal(loaded("cursor-agent", [rule(".cursor/rules/a.mdc"), ...TREE], READ), [
    ".cursor/rules/a.mdc",
    "AGENTS.md",
    "CLAUDE.md",
    "pkg/AGENTS.md",
    "lib/AGENTS.md",
  ]);
  assert.is(profile("cursor").loadsItself(file("CLAUDE.md"), context()), null, "the editor's profile does not");
});

test("each profile proven against a real CLI carries the version its suite pins, and each pinned host has a profile", () => {
  for (const [name, version] of Object.entries(HOST_VERSIONS)) {
    assert.ok(AGENT_PROFILES[name], `${name} has a profile`);
    assert.is(AGENT_PROFILES[name]!.version, version, `${name}: proven with ${AGENT_PROFILES[name]!.version}, the suite runs ${version}`);
  }
});

test("the new hosts are accepted by their names, Qwen Code also as qwen", () => {
  for (const name of ["copilot-cli", "qwen-code", "droid", "cline", "kilo", "cursor-agent"]) assert.is(agentName(name), name);
  assert.is(agentName("Qwen"), "qwen-code");
});

test("doctor tags a file with the new hosts that read it, a host's surfaces as one agent", () => {
  const candidates = [file("AGENTS.md"), file("CLAUDE.md"), rule(".clinerules/style.md"), rule(".cursor/rules/a.mdc")];
  const readers = fileReaders(candidates, Object.values(AGENT_PROFILES), (path) =>
    path.startsWith(".clinerules/") ? "cline" : path.startsWith(".cursor/") ? "cursor" : undefined,
  );
  // Claude Code reads CLAUDE.md here instead.
  assert.equal(readers("AGENTS.md"), ["cline", "codex", "copilot", "cursor", "droid", "kilo", "kiro", "opencode", "qwen-code", "windsurf"]);
  assert.equal(readers("CLAUDE.md"), ["claude-code", "copilot", "cursor", "droid"], "opencode takes AGENTS.md first");
  assert.equal(readers(".cursor/rules/a.mdc"), ["cursor"], "cursor-agent is Cursor, named once");
});

test.run();
