import { test } from "uvu";
import * as assert from "uvu/assert";
import type { AgentProfile } from "../../src/core/agents/profile.js";
import { CONFIG_TABLE, isGroup, type Entry } from "../../src/core/config-table.js";
import { additionalContext, type CommandHookHost } from "../../src/hosts/host.js";
import { HOSTS, hostRegistry } from "../../src/hosts/index.js";
import { hookHostOf } from "../../src/integrations/command-hook.js";

// Adding a host is one file and one line in HOSTS (AGENTS.md, "Adding a host"): a host written only through the
// Host type is dispatched by `hook`, installed by `init`, taken by `--as` and has its config group named.

const fakeProfile: AgentProfile = { name: "fake-agent", version: "0.0.1", basis: "a unit test", loadsItself: (c) => (c.path === "FAKE.md" ? "it loads FAKE.md itself" : null) };
const fakeHost: CommandHookHost = {
  name: "fake-agent",
  short: "fake",
  label: "Fake Agent",
  profile: fakeProfile,
  includeNative: () => false,
  hook: {
    action: (event) => (event.hook_event_name === "Prompt" && typeof event.prompt === "string" ? { select: { prompt: event.prompt } } : null),
    answer: additionalContext,
  },
  install: { settings: { project: ".fake/settings.json", user: ".fake/settings.json", events: [{ event: "Prompt" }], timeout: 5, projectDir: "cwd" } },
  markers: [".fake/"],
};
const registry = hostRegistry([...HOSTS, fakeHost]);

test("a host added to the list is dispatched by `hook` under its short name and its profile name", () => {
  assert.is(registry.hookHost("fake"), fakeHost);
  assert.is(registry.hookHost("Fake-Agent"), fakeHost);
  assert.is(hostRegistry(HOSTS).hookHost("fake"), undefined);
  const host = hookHostOf(registry.hookHost("fake")!);
  assert.equal(host.action({ hook_event_name: "Prompt", prompt: "fix x.ts" }), { select: { prompt: "fix x.ts" } });
  assert.equal(host.answer("Prompt", "RULES"), { hookSpecificOutput: { hookEventName: "Prompt", additionalContext: "RULES" } });
  assert.is(host.agent, "fake-agent");
});

test("a host added to the list gets its `init` flag, and its profile name as a hidden one", () => {
  const flags = registry.initFlags.filter((f) => f.host === fakeHost).map(({ flag, hidden }) => ({ flag, hidden }));
  assert.equal(flags, [
    { flag: "--fake", hidden: false },
    { flag: "--fake-agent", hidden: true },
  ]);
});

test("a host added to the list is an `--as` name (and its short name), with its profile", () => {
  assert.ok(registry.accepted.includes("fake-agent"));
  assert.ok(registry.accepted.includes("fake"));
  assert.is(registry.agentName("fake"), "fake-agent");
  assert.is(registry.profileFor("fake-agent"), fakeProfile);
  assert.is(registry.profiles["fake-agent"], fakeProfile);
});

test("a host added to the list names its config group by its short name", () => {
  assert.ok(registry.configGroups.includes("fake"));
});

test("the names and flags of today's hosts: hook claude/codex/gemini/cursor, init --claude … --opencode, --kilo, --cursor", () => {
  const today = hostRegistry(HOSTS);
  assert.equal(today.commandHookHosts.map((h) => h.short), ["claude", "codex", "gemini", "cursor"]);
  assert.equal(today.initFlags.map((f) => f.flag), ["--claude", "--claude-code", "--codex", "--gemini", "--gemini-cli", "--opencode", "--kilo", "--cursor", "--cursor-agent"]);
  assert.equal(today.accepted, ["claude-code", "cline", "codex", "copilot", "copilot-cli", "cursor", "cursor-agent", "droid", "gemini-cli", "kilo", "kiro", "opencode", "qwen-code", "windsurf", "claude", "gemini", "github-copilot", "qwen"]);
});

test("`hook cursor` and `init --cursor` are Cursor's CLI, while `--as cursor` stays the editor's profile", () => {
  const today = hostRegistry(HOSTS);
  assert.is(today.hookHost("cursor")?.name, "cursor-agent");
  assert.is(today.hookHost("cursor-agent")?.name, "cursor-agent");
  assert.is(today.agentName("cursor"), "cursor");
  assert.is(today.profileFor("cursor")?.name, "cursor");
  assert.is(today.initFlags.find((f) => f.flag === "--cursor")?.host.name, "cursor-agent");
});

test("every host's config group is in the config table, with includeNative", () => {
  for (const group of hostRegistry(HOSTS).configGroups) {
    const entry = (CONFIG_TABLE as Record<string, Entry>)[group];
    assert.ok(entry !== undefined && isGroup(entry) && "includeNative" in entry.members, `config table has ${group}.includeNative`);
  }
});

test.run();
