import { test } from "uvu";
import * as assert from "uvu/assert";
import type { LoadedContext } from "../../src/core/agents/profile.js";
import { codex, codexProfile } from "../../src/core/agents/codex.js";
import { geminiCli, geminiCliProfile } from "../../src/core/agents/gemini-cli.js";
import { opencode, opencodeProfile } from "../../src/core/agents/opencode.js";
import { makeCandidate } from "../../src/core/sources/source.js";
import { approxTokens } from "../../src/core/tokens.js";

const agentFile = (path: string) => makeCandidate({ source: "directory-agents", id: path, priority: "normal", kind: "directory", path, content: "text", countTokens: approxTokens });
const context = (present: string[], workingFolder = "", reads: string[] = []): LoadedContext => ({ present: new Set(present), workingFolder, reads, bytesOf: () => 100 });
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
  const sizes: Record<string, number> = { "AGENTS.md": 20_000, "app/AGENTS.override.md": 10_000, "app/AGENTS.md": 5, "app/web/AGENTS.md": 4_000, "app/web/src/AGENTS.md": 10 };
  const ctx: LoadedContext = { present: new Set(Object.keys(sizes)), workingFolder: "app/web", reads: [], bytesOf: (p) => sizes[p] ?? 0 };
  const codexLoads = (path: string) => codex.loadsItself(agentFile(path), ctx) !== null;
  assert.ok(codexLoads("AGENTS.md"));
  assert.ok(codexLoads("app/AGENTS.override.md"));
  assert.not.ok(codexLoads("app/AGENTS.md"), "the override wins in that folder");
  assert.not.ok(codexLoads("app/web/AGENTS.md"), "20,000 + 10,000 + 4,000 bytes: past 32 KiB, cut");
  assert.not.ok(codexLoads("app/web/src/AGENTS.md"), "below the working folder");
  assert.not.ok(codex.loadsItself({ ...agentFile("AGENTS.md"), imports: [{ path: "docs/a.md", children: [] } as never] }, ctx), "imports Codex would not expand");
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
  const rule = (path: string) => makeCandidate({ source: "rules-injector", id: path, priority: "normal", kind: "always", path, content: "text", countTokens: approxTokens });
  const configured = opencodeProfile({ instructions: ["CONVENTIONS.md", ".cursor/rules/*.mdc", "/etc/outside.md"], from: "opencode.json" });
  const ctx = context(["CONVENTIONS.md", "apps/web/CONVENTIONS.md", "lib/CONVENTIONS.md"], "apps/web");
  assert.match(configured.loadsItself(rule(".cursor/rules/style.mdc"), ctx) ?? "", "opencode loads .cursor/rules/*.mdc at start (instructions in opencode.json)");
  assert.ok(configured.loadsItself(rule("CONVENTIONS.md"), ctx));
  assert.ok(configured.loadsItself(rule("apps/web/CONVENTIONS.md"), ctx));
  assert.is(configured.loadsItself(rule("lib/CONVENTIONS.md"), ctx), null, "off the path from the working folder up");
  assert.is(configured.loadsItself(rule(".cursor/rules/deep/x.mdc"), ctx), null, "* stays in one folder");
  assert.is(opencode.loadsItself(rule(".cursor/rules/style.mdc"), ctx), null, "without instructions, no rules folders");
});

test.run();
