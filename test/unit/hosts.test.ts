import { test } from "uvu";
import * as assert from "uvu/assert";
import { READ_ONLY_AGENTS } from "../../src/core/agents/index.js";
import type { AgentProfile } from "../../src/core/agents/profile.js";
import { renderConfigTemplate } from "../../src/core/config-docs.js";
import { configLeaves, isGroup, tableEntries } from "../../src/core/config-table.js";
import { defaultConfig, validateConfig } from "../../src/core/config.js";
import { additionalContext, hostSettings, type CommandHookHost } from "../../src/hosts/host.js";
import { COMMAND_HOOK_HOSTS, HOST_CONFIG, HOSTS, hostRegistry } from "../../src/hosts/index.js";
import { hookHostOf } from "../../src/integrations/command-hook.js";

// Adding a host is one file and one line in HOSTS (AGENTS.md, "Adding a host"): a host written only through the
// Host type is dispatched by `hook`, installed by `init`, taken by `--as` and has its config group named.

const fakeProfile: AgentProfile = {
  name: "fake-agent",
  version: "0.0.1",
  basis: "a unit test",
  loadsItself: (c) => (c.path === "FAKE.md" ? "it loads FAKE.md itself" : null),
};
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
  const capped: CommandHookHost = {
    ...fakeHost,
    name: "capped-agent",
    short: "capped",
    maxCharsSetting: { cap: 4000, default: 3500, doc: "cap on Capped's context" },
  };
  const groups = hostRegistry([capped]).configGroups;
  assert.equal(validateConfig({}, "t", [], groups).capped, { includeNative: false, maxChars: 3500 });
  assert.throws(
    () => validateConfig({ capped: { maxChars: 4001 } }, "t", [], groups),
    /"capped\.maxChars" must be a whole number from 100 to 4000, got number 4001/,
  );
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

test("every host of HOSTS, in its order: `hook` answers its short and profile names, `init` takes --<short> (and a hidden --<name>), `--as` takes both", () => {
  const today = hostRegistry(HOSTS);
  assert.equal(
    today.commandHookHosts,
    HOSTS.filter((h) => h.hook !== undefined),
    "the hook hosts in HOSTS' order",
  );
  for (const host of today.commandHookHosts) {
    assert.is(today.hookHost(host.short), host, `hook ${host.short}`);
    assert.is(today.hookHost(host.name), host, `hook ${host.name}`);
  }
  assert.equal(
    today.initFlags.map((f) => f.flag),
    HOSTS.flatMap((h) => (h.short === h.name ? [`--${h.short}`] : [`--${h.short}`, `--${h.name}`])),
  );
  for (const host of HOSTS) {
    assert.is(today.agentName(host.name), host.name);
    // A short name that is another agent's profile (copilot, cursor) stays that profile for --as (tests below).
    if (!Object.hasOwn(today.profiles, host.short)) assert.is(today.agentName(host.short), host.name, `--as ${host.short}`);
    assert.ok(today.accepted.includes(host.short) && today.accepted.includes(host.name));
  }
  for (const agent of READ_ONLY_AGENTS) {
    assert.is(today.agentName(agent.profile.name), agent.profile.name, `--as ${agent.profile.name}, an agent without a host`);
    if (agent.short !== undefined) assert.is(today.agentName(agent.short), agent.profile.name);
  }
  assert.equal(today.names, [...today.names].sort(), "profile names sorted by code unit");
});

test("every hook host declares sample events it answers, each kind once: the bundle's training, the bench and the hook test play them", () => {
  const place = { root: "/project", file: "src/app.ts", prompt: "fix src/app.ts" };
  for (const host of COMMAND_HOOK_HOSTS) {
    const samples = host.samples ?? [];
    assert.ok(samples.length > 0, `${host.short} declares samples`);
    assert.equal(new Set(samples.map((s) => s.label)).size, samples.length, `${host.short}: one sample of each kind`);
    for (const sample of samples) {
      const raw = sample.event(place);
      assert.type(raw.hook_event_name, "string", `${host.short} ${sample.label}: names its event`);
      const event = host.hook.event ? host.hook.event({ ...raw, session_id: "s", cwd: place.root }) : raw;
      assert.ok(host.hook.action(event) !== null, `${host.short} ${sample.label}: an event its hook answers`);
    }
  }
});

test("every host's config group is in the table the config is checked with, with includeNative; a capped host's with maxChars", () => {
  const keys = configLeaves(HOST_CONFIG).map(({ key }) => key);
  for (const host of HOSTS) assert.ok(keys.includes(`${host.short}.includeNative`), `config table has ${host.short}.includeNative`);
  for (const host of HOSTS) assert.is(keys.includes(`${host.short}.maxChars`), host.maxCharsSetting !== undefined, `${host.short}.maxChars`);
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
