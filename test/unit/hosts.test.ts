import { test } from "uvu";
import * as assert from "uvu/assert";
import type { AgentProfile } from "../../src/core/agents/profile.js";
import { renderConfigTemplate } from "../../src/core/config-docs.js";
import { configLeaves, isGroup, tableEntries } from "../../src/core/config-table.js";
import { defaultConfig, validateConfig } from "../../src/core/config.js";
import { additionalContext, hostSettings, type CommandHookHost } from "../../src/hosts/host.js";
import { HOST_CONFIG, HOSTS, hostRegistry } from "../../src/hosts/index.js";
import { hookHostOf } from "../../src/integrations/command-hook.js";

// Adding a host is one file and one line in HOSTS (AGENTS.md, "Adding a host"): a host written only through the
// Host type is dispatched by `hook`, installed by `init`, taken by `--as` and has its config group named.

const fakeProfile: AgentProfile = { name: "fake-agent", version: "0.0.1", basis: "a unit test", loadsItself: (c) => (c.path === "FAKE.md" ? "it loads FAKE.md itself" : null) };
const fakeHost: CommandHookHost = {
  name: "fake-agent",
  short: "fake",
  label: "Fake Agent",
  profile: fakeProfile,
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

test("a host added to the list gets its config group by its short name: `fake.includeNative` checks, defaults and reaches its hook", () => {
  const groups = registry.configGroups;
  assert.equal(validateConfig({}, "t", [], groups).fake, { includeNative: false });
  const config = validateConfig({ fake: { includeNative: true } }, "t", [], groups);
  assert.is(hookHostOf(registry.hookHost("fake")!).includeNative(config), true);
  assert.is(hookHostOf(registry.hookHost("fake")!).maxChars, undefined);
  assert.throws(() => validateConfig({ fake: { includeNative: "yes" } }, "t", [], groups), /"fake\.includeNative" must be true or false/);
  assert.throws(() => validateConfig({ fake: { maxChars: 500 } }, "t", [], groups), /unknown key "fake\.maxChars"/);
  const template = renderConfigTemplate(groups);
  assert.match(template, "# fake.includeNative: also send what Fake Agent loads itself\n# fake: { includeNative: false }");
  assert.ok(configLeaves(groups).some(({ key }) => key === "fake.includeNative"));
});

test("a host with a cap declares it once and gets `<short>.maxChars`: checked against the cap, its default, read by its hook", () => {
  const capped: CommandHookHost = { ...fakeHost, name: "capped-agent", short: "capped", maxCharsSetting: { cap: 4000, default: 3500, doc: "cap on Capped's context" } };
  const groups = hostRegistry([capped]).configGroups;
  assert.equal(validateConfig({}, "t", [], groups).capped, { includeNative: false, maxChars: 3500 });
  assert.throws(() => validateConfig({ capped: { maxChars: 4001 } }, "t", [], groups), /"capped\.maxChars" must be a whole number from 100 to 4000, got number 4001/);
  const config = validateConfig({ capped: { maxChars: 2000 } }, "t", [], groups);
  assert.is(hookHostOf(capped).maxChars?.(config), 2000);
  // A config completed without the hosts' groups (a library caller's core defaultConfig()) reads as the defaults.
  assert.equal(hostSettings(capped, defaultConfig()), { includeNative: false, maxChars: 3500 });
});

test("a group still written by hand in the table under a host's name is that host's group: no second one is derived", () => {
  const clash = { key: "compaction", label: "Clash", doc: "clash" };
  const entries = tableEntries([clash]).filter(([name]) => name === "compaction");
  assert.is(entries.length, 1);
  assert.equal(Object.keys(isGroup(entries[0]![1]) ? entries[0]![1].members : {}), ["budgetFraction"]);
  const keys = configLeaves([...HOST_CONFIG, clash]).map(({ key }) => key);
  assert.equal(keys.length, new Set(keys).size);
});

test("the names and flags of today's hosts: hook claude … cursor, init --claude … --cursor", () => {
  const today = hostRegistry(HOSTS);
  assert.equal(today.commandHookHosts.map((h) => h.short), ["claude", "codex", "gemini", "cline", "qwen", "droid", "copilot", "cursor"]);
  assert.equal(today.initFlags.map((f) => f.flag), ["--claude", "--claude-code", "--codex", "--gemini", "--gemini-cli", "--opencode", "--cline", "--qwen", "--qwen-code", "--droid", "--copilot", "--copilot-cli", "--kilo", "--cursor", "--cursor-agent"]);
  assert.equal(today.accepted, ["claude-code", "cline", "codex", "copilot", "copilot-cli", "cursor", "cursor-agent", "droid", "gemini-cli", "kilo", "kiro", "opencode", "qwen-code", "windsurf", "claude", "gemini", "qwen", "github-copilot"]);
});

test("every host's config group is in the table the config is checked with, with includeNative; claude's with maxChars", () => {
  const keys = configLeaves(HOST_CONFIG).map(({ key }) => key);
  for (const host of HOSTS) assert.ok(keys.includes(`${host.short}.includeNative`), `config table has ${host.short}.includeNative`);
  assert.ok(keys.includes("claude.maxChars"));
  assert.equal(keys.length, new Set(keys).size);
});

test("copilot is GitHub Copilot of the IDE for --as, and Copilot CLI for hook and init", () => {
  const today = hostRegistry(HOSTS);
  assert.is(today.agentName("copilot"), "copilot");
  assert.is(today.hookHost("copilot")?.name, "copilot-cli");
  assert.is(today.hookHost("copilot-cli")?.name, "copilot-cli");
  assert.is(today.initFlags.find((f) => f.flag === "--copilot")?.host.name, "copilot-cli");
});

test("`hook cursor` and `init --cursor` are Cursor's CLI, while `--as cursor` stays the editor's profile", () => {
  const today = hostRegistry(HOSTS);
  assert.is(today.hookHost("cursor")?.name, "cursor-agent");
  assert.is(today.hookHost("cursor-agent")?.name, "cursor-agent");
  assert.is(today.agentName("cursor"), "cursor");
  assert.is(today.profileFor("cursor")?.name, "cursor");
  assert.is(today.initFlags.find((f) => f.flag === "--cursor")?.host.name, "cursor-agent");
});

test.run();
