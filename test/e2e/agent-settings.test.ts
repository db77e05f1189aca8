import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, HOOK_SERVER_OFF, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

// fixtures/agent-settings: each agent's own settings that change what it loads (Gemini CLI's context.fileName,
// Codex's fallback names in a trusted project's .codex/config.toml, opencode's instructions).

const { folder } = tempFolders(test);
test.after(cleanup);

interface Row {
  id: string;
  agent: { loads: boolean; reason: string };
}

async function view(root: string, agent: string, env: Record<string, string> = {}): Promise<{ rows: Map<string, Row["agent"]>; stderr: string }> {
  const result = await runMain(["explain", "--json", "--as", agent, "--files", "src/send.ts"], {
    cwd: join(root, "services/mail"),
    env: { HOME: emptyHome(), ...env },
  });
  assert.is(result.status, 0, result.stderr);
  const rows = (JSON.parse(result.stdout) as { candidates: Row[] }).candidates;
  return { rows: new Map(rows.map((r) => [r.id, r.agent])), stderr: result.stderr };
}
const emptyHome = () => folder("home");

test("Gemini CLI's context.fileName (JSON with comments) makes AGENTS.md its own, and says where that was set", async () => {
  const { rows } = await view(materialize("agent-settings"), "gemini-cli");
  assert.ok(rows.get("AGENTS.md")!.loads);
  assert.match(rows.get("AGENTS.md")!.reason, "(context.fileName in .gemini/settings.json)");
  assert.not.ok(rows.get("CONVENTIONS.md")!.loads);
});

test("without that setting Gemini CLI reads GEMINI.md only; the user's settings apply when the project has none", async () => {
  const root = materialize("agent-settings");
  writeFileSync(join(root, ".gemini/settings.json"), "{}");
  assert.not.ok((await view(root, "gemini-cli")).rows.get("AGENTS.md")!.loads);
  const home = emptyHome();
  mkdirSync(join(home, ".gemini"));
  writeFileSync(join(home, ".gemini/settings.json"), JSON.stringify({ context: { fileName: "AGENTS.md" } }));
  const rows = (await view(root, "gemini-cli", { HOME: home })).rows;
  assert.match(rows.get("AGENTS.md")!.reason, "(context.fileName in ~/.gemini/settings.json)");
  assert.not.ok(rows.get("GEMINI.md")!.loads, "the user named AGENTS.md alone");
});

test("Gemini CLI's system settings override the project's, and its system defaults count only under all others", async () => {
  const root = materialize("agent-settings");
  const dir = emptyHome();
  const system = join(dir, "settings.json");
  const defaults = join(dir, "system-defaults.json");
  writeFileSync(system, JSON.stringify({ context: { fileName: "GEMINI.md" } }));
  writeFileSync(defaults, JSON.stringify({ context: { fileName: "CONVENTIONS.md" } }));
  const over = (await view(root, "gemini-cli", { GEMINI_CLI_SYSTEM_SETTINGS_PATH: system, GEMINI_CLI_SYSTEM_DEFAULTS_PATH: defaults })).rows;
  assert.not.ok(over.get("AGENTS.md")!.loads, "the system settings name GEMINI.md alone");
  assert.ok(over.get("GEMINI.md")!.loads);
  writeFileSync(join(root, ".gemini/settings.json"), "{}");
  const under = (await view(root, "gemini-cli", { GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(dir, "none.json"), GEMINI_CLI_SYSTEM_DEFAULTS_PATH: defaults })).rows;
  assert.ok(under.get("CONVENTIONS.md")!.loads, "nothing else sets it: the system defaults do");
});

test("Codex's fallback names count from the user's config.toml, and from a project's only when the user trusts it", async () => {
  const root = materialize("agent-settings");
  assert.not.ok(
    (await view(root, "codex")).rows.get("services/mail/CLAUDE.md")!.loads,
    "an untrusted project's .codex/config.toml is ignored, as Codex ignores it",
  );
  const codexHome = emptyHome();
  writeFileSync(join(codexHome, "config.toml"), `model = "x"\n\n[projects."${root}"]\ntrust_level = "trusted"\n`);
  const trusted = (await view(root, "codex", { CODEX_HOME: codexHome })).rows.get("services/mail/CLAUDE.md")!;
  assert.ok(trusted.loads);
  assert.match(trusted.reason, "(as .codex/config.toml sets it)");
  writeFileSync(join(codexHome, "config.toml"), `project_doc_fallback_filenames = ["CLAUDE.md"]\n`);
  assert.match((await view(root, "codex", { CODEX_HOME: codexHome })).rows.get("services/mail/CLAUDE.md")!.reason, "(as ");
});

test("opencode's instructions make a rule folder and CONVENTIONS.md its own", async () => {
  const { rows } = await view(materialize("agent-settings"), "opencode");
  assert.match(rows.get(".cursor/rules/style.mdc")!.reason, "opencode loads .cursor/rules/*.mdc at start (instructions in opencode.json)");
  assert.ok(rows.get("CONVENTIONS.md")!.loads);
  assert.not.ok(rows.get("GEMINI.md")!.loads);
});

test("an absolute path in opencode's instructions that lies in the project counts as that file", async () => {
  const root = materialize("agent-settings");
  writeFileSync(join(root, "opencode.json"), JSON.stringify({ instructions: [join(root, "CONVENTIONS.md"), "/elsewhere/NOTES.md"] }));
  const { rows } = await view(root, "opencode");
  assert.ok(rows.get("CONVENTIONS.md")!.loads);
  assert.not.ok(rows.get(".cursor/rules/style.mdc")!.loads);
});

test("a settings file that does not parse is a warning naming it; the agent's defaults apply", async () => {
  const root = materialize("agent-settings");
  writeFileSync(join(root, ".gemini/settings.json"), "{ context: ");
  const { rows, stderr } = await view(root, "gemini-cli");
  assert.match(stderr, /\.gemini\/settings\.json: gemini-cli's own settings do not parse/);
  assert.not.ok(rows.get("AGENTS.md")!.loads);
});

test("the hooks skip what the agent's settings make it load itself", async () => {
  const root = materialize("agent-settings");
  const event = JSON.stringify({ hook_event_name: "BeforeAgent", session_id: "s1", cwd: root, prompt: "tidy services/mail/src/send.ts" });
  const result = await runMain(["hook", "gemini"], {
    cwd: root,
    input: event,
    env: { ...HOOK_SERVER_OFF, HOME: emptyHome(), CTXINJECT_STATE_DIR: emptyHome() },
  });
  assert.is(result.status, 0, result.stderr);
  const context = JSON.parse(result.stdout).hookSpecificOutput.additionalContext as string;
  assert.match(context, "Prefer early returns");
  assert.not.match(context, "Every public function has a doc comment", "Gemini CLI loads AGENTS.md itself here");
});

test.run();
