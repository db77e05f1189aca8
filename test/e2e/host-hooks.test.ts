/**
 * `ctxinject hook <host>` for every command-hook host, in this process (main(argv, ctx), as the hook bundle and the
 * hook server run it): each host's declared sample events (Host.samples) answered in its shape, then each host's
 * recorded events as rows of one table (event → what the answer holds or lacks, caps, what answers nothing). How a
 * hook travels (the hook client and server) is hook-server.test.ts's; hooks as processes at once are
 * hook-processes.test.ts's.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { COMMAND_HOOK_HOSTS, hookHost } from "../../src/hosts/index.js";
import type { CliResult } from "../helpers/cli.js";
import { cleanup, materialize } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

test.after(cleanup);

type Answer = Record<string, unknown>;
type Shape = (eventName: string, context: string) => Answer;
const claudeShape: Shape = (hookEventName, additionalContext) => ({ hookSpecificOutput: { hookEventName, additionalContext } });

/**
 * Each host as the tests meet it: the fixture its events were recorded against (with the files it adds), the fields
 * every one of its events carries, the environment its hooks run in, and its answer's shape written out here.
 */
interface HostRow {
  fixture: string;
  setup?(root: string): void;
  common(root: string, state: string): Record<string, unknown>;
  env?: Record<string, string>;
  shape: Shape;
}

const write = (root: string, file: string, text: string) => {
  mkdirSync(join(root, file, ".."), { recursive: true });
  writeFileSync(join(root, file), text);
};

const HOST_ROWS: Record<string, HostRow> = {
  claude: { fixture: "monorepo", common: (root) => ({ session_id: "s-1", cwd: root }), shape: claudeShape },
  // Recorded from Codex 0.169.0 and Gemini CLI 0.61.0; the GEMINI.md is one Gemini CLI loads itself.
  codex: {
    fixture: "claude-host",
    setup: (root) => write(root, "packages/api/GEMINI.md", "Gemini notes for the API. (MARK-GEMINI-API)\n"),
    common: (root) => ({ session_id: "s-1", cwd: root }),
    shape: claudeShape,
  },
  gemini: {
    fixture: "claude-host",
    setup: (root) => write(root, "packages/api/GEMINI.md", "Gemini notes for the API. (MARK-GEMINI-API)\n"),
    common: (root) => ({ session_id: "s-1", cwd: root }),
    shape: claudeShape,
  },
  // The fields the Cline plugin hands over (recorded from Cline CLI 3.0.65's beforeRun and afterTool), and a
  // .clinerules rule Cline applies itself.
  cline: {
    fixture: "claude-host",
    setup: (root) => write(root, ".clinerules/style.md", "Prefer small functions. (MARK-CLINERULES)\n"),
    common: (root) => ({ session_id: "1795555865405_5oogg", cwd: root }),
    shape: (_event, appendContext) => ({ appendContext }),
  },
  // Recorded from Qwen Code 0.24.4 and Factory Droid 0.215.0 (test/hosts/qwen.test.ts, droid.test.ts).
  qwen: {
    fixture: "claude-host",
    common: (root, state) => ({
      session_id: "0d6f1c2e-qwen",
      transcript_path: join(state, "t.jsonl"),
      cwd: root,
      permission_mode: "yolo",
      timestamp: "2026-11-24T21:00:00.000Z",
    }),
    shape: claudeShape,
  },
  droid: {
    fixture: "claude-host",
    common: (root, state) => ({ session_id: "7c0e-droid", transcript_path: join(state, "t.jsonl"), cwd: root, permission_mode: "auto-high" }),
    shape: claudeShape,
  },
  // Recorded from GitHub Copilot CLI 1.0.102: Claude-style snake_case input; it reads `additionalContext` at the
  // top of the answer (not hookSpecificOutput). Its hooks run with COPILOT_CLI=1.
  copilot: {
    fixture: "claude-host",
    setup: (root) => write(root, "packages/api/CLAUDE.md", "Claude notes for the API. (MARK-CLAUDE-API)\n"),
    common: (root) => ({ session_id: "0d6c1f1e-copilot", timestamp: "2026-11-24T21:29:13.849Z", cwd: root }),
    env: { COPILOT_CLI: "1" },
    shape: (_event, additionalContext) => ({ additionalContext }),
  },
  // Shaped as Cursor's hooks documentation gives them (hooks.json v1: `conversation_id`, `workspace_roots`, no cwd and
  // no session_id but on sessionStart); not recorded from the real CLI, which cannot run here. An always-on file
  // Cursor does not read itself.
  cursor: {
    fixture: "claude-host",
    setup: (root) => write(root, ".github/copilot-instructions.md", "Answer in British English. (MARK-COPILOT-ALWAYS)\n"),
    common: (root) => ({
      conversation_id: "conv-1",
      generation_id: "gen-1",
      model: "auto",
      cursor_version: "2.4.0",
      workspace_roots: [root],
      user_email: null,
      transcript_path: null,
    }),
    shape: (eventName, additional_context) => (eventName === "beforeSubmitPrompt" ? { continue: true, additional_context } : { additional_context }),
  },
};

const rowOf = (short: string): HostRow => {
  const row = HOST_ROWS[short];
  if (!row) throw new Error(`no row for host ${short} in HOST_ROWS: its fixture, common fields and answer shape`);
  return row;
};

/** A copy of the host's fixture (or `fixture`), a state folder of its own, and `hook(event)` answered in this process. */
function hookCase(short: string, fixture?: string) {
  const row = rowOf(short);
  const root = materialize(fixture ?? row.fixture);
  row.setup?.(root);
  const state = folder("hook");
  const base = row.common(root, state);
  const hook = (event: Record<string, unknown>, options: { as?: string; env?: Record<string, string>; startedAt?: number } = {}): Promise<CliResult> =>
    runMain(["hook", options.as ?? short], {
      cwd: "/",
      env: { CTXINJECT_STATE_DIR: state, ...row.env, ...options.env },
      input: JSON.stringify({ ...base, ...event }),
      ...(options.startedAt !== undefined && { startedAt: options.startedAt }),
    });
  return { root, state, hook };
}

/** The context an answer carries, once the answer is exactly the host's shape around it. */
function contextOf(short: string, eventName: string, stdout: string): string {
  const answer = JSON.parse(stdout) as Answer;
  const shape = rowOf(short).shape;
  const context = findString(answer, (value) => JSON.stringify(shape(eventName, value)) === stdout.trim());
  assert.ok(context !== undefined, `${short} ${eventName}: ${stdout.slice(0, 200)} is not ${JSON.stringify(shape(eventName, "…"))}`);
  return context!;
}

/** The string value in `value` for which `fits` holds. */
function findString(value: unknown, fits: (candidate: string) => boolean): string | undefined {
  if (typeof value === "string") return fits(value) ? value : undefined;
  if (value === null || typeof value !== "object") return undefined;
  for (const inner of Object.values(value)) {
    const found = findString(inner, fits);
    if (found !== undefined) return found;
  }
  return undefined;
}

// --- Each host's sample events (Host.samples), the ones the bundle trains on and the bench times ---

/** Every host's samples play on claude-host (with the files the host's row adds), on its nested API handler. */
const SAMPLE_PLACE = { file: "packages/api/src/handler.ts", prompt: "fix the retry in packages/api/src/handler.ts" };

test("every command-hook host has a row here (its fixture, common fields and answer shape)", () => {
  for (const host of COMMAND_HOOK_HOSTS) assert.ok(HOST_ROWS[host.short], host.short);
});

for (const host of COMMAND_HOOK_HOSTS) {
  test(`${host.short}: each sample event it declares is answered in its shape with the file's or the prompt's rules, and not again in that session`, async () => {
    const { root, hook } = hookCase(host.short, "claude-host");
    const place = { root, ...SAMPLE_PLACE };
    assert.ok(host.samples !== undefined && host.samples.length > 0, `${host.short} declares no sample events`);
    for (const sample of host.samples) {
      const raw = sample.event(place);
      const session = { session_id: `sample-${sample.label}`, conversation_id: `sample-${sample.label}` };
      const first = await hook({ ...raw, ...session });
      assert.is(first.status, 0, first.stderr);
      const context = contextOf(host.short, String(raw.hook_event_name), first.stdout);
      assert.match(context, /\(MARK-[A-Z-]+\)/, `${host.short} ${sample.label}: some rule`);
      const again = await hook({ ...raw, ...session });
      assert.is(again.status, 0, again.stderr);
      assert.is(again.stdout, "", `${host.short} ${sample.label} again: nothing new`);
    }
  });
}

// --- Each host's recorded events, as a table ---

interface Step {
  event: Record<string, unknown>;
  /** `hook <as>` instead of the row's host (another name of it, or another host run in the same setting). */
  as?: string;
  env?: Record<string, string>;
  /** Nothing on stdout (and exit 0). */
  empty?: true;
  has?: Array<string | RegExp>;
  lacks?: string[];
  stderrHas?: string;
  stderrLacks?: string;
  why?: string;
  /** More about the context, or the answer, than has/lacks say. */
  check?(context: string, out: CliResult): void | Promise<void>;
}

interface Case {
  host: string;
  title: string;
  setup?(root: string): void;
  steps(root: string, state: string): Step[];
}

const prompt = (text: string) => ({ hook_event_name: "UserPromptSubmit", prompt: text });
const claudeRead = (root: string, file: string) => ({ hook_event_name: "PostToolUse", tool_name: "Read", tool_input: { file_path: join(root, file) } });
const API_HANDLER = "packages/api/src/handlers/user.ts";
const config = (root: string, value: unknown) => writeFileSync(join(root, ".ctxinjectrc.json"), typeof value === "string" ? value : JSON.stringify(value));
const sessionsIn = async (state: string) =>
  (JSON.parse((await runMain(["sessions", "--json"], { env: { CTXINJECT_STATE_DIR: state } })).stdout) as { sessions: unknown[] }).sessions;

const CASES: Case[] = [
  // Claude Code
  {
    host: "claude",
    title: "UserPromptSubmit answers with the context for the prompt",
    steps: () => [{ event: prompt("ulw tidy packages/web/src/components/Button.tsx"), has: ["ULTRAWORK MODE", "packages/web/.cursor/rules/components.mdc"] }],
  },
  {
    host: "claude",
    title: "what Claude Code loads itself is skipped: CLAUDE.md, its copies, and .claude/rules without paths",
    steps: () => [
      {
        event: prompt("hello"),
        lacks: ["Use pnpm; never commit", "Errors carry the file and line"],
        has: ["Keep functions short"],
        why: "AGENTS.md has CLAUDE.md's content, which Claude already has; .claude/rules/conventions.md has no paths",
      },
    ],
  },
  {
    host: "claude",
    title: "includeNative in the config brings them back",
    setup: (root) => config(root, { agents: { files: ["AGENTS.md", "CLAUDE.md"] }, claude: { includeNative: true } }),
    steps: () => [{ event: prompt("hello"), has: ["Use pnpm; never commit"] }],
  },
  {
    host: "claude",
    title: "PostToolUse on Read answers with that file's rules once, then nothing until it changes",
    steps: (root) => [
      { event: claudeRead(root, API_HANDLER), has: ["Every handler checks the caller's permissions first."] },
      { event: claudeRead(root, API_HANDLER), empty: true, why: "nothing new: no output at all" },
    ],
  },
  {
    host: "claude",
    title: "after a compaction the agent gets a digest of what was in force, critical rules in full, and the rules come back on use",
    steps: (root) => [
      { event: claudeRead(root, API_HANDLER), has: ["packages/api/.cursor/rules/handlers.mdc"] },
      {
        event: { hook_event_name: "SessionStart", source: "compact" },
        has: [
          "## Instructions in force before this conversation was compacted",
          "### packages/api/.cursor/rules/handlers.mdc (critical)",
          "- .cursor/rules/general.mdc",
        ],
        check: (digest) => assert.ok(digest.length <= 9500 * 0.25, `within a quarter of the cap (${digest.length})`),
      },
      {
        event: claudeRead(root, API_HANDLER),
        has: ["<!-- rules-injector: packages/api/.cursor/rules/handlers.mdc"],
        why: "full texts come back when the file is touched again",
      },
      { event: { hook_event_name: "SessionStart", source: "clear" }, empty: true, why: "/clear forgets without a digest" },
    ],
  },
  {
    host: "claude",
    title: "SessionStart after compact forgets what the session has seen (and answers with the digest)",
    steps: (root) => [
      { event: claudeRead(root, API_HANDLER), has: ["Every handler checks"] },
      { event: claudeRead(root, API_HANDLER), empty: true },
      { event: { hook_event_name: "SessionStart", source: "compact" }, has: ["Instructions in force"] },
      { event: claudeRead(root, API_HANDLER), has: ["Every handler checks"] },
    ],
  },
  {
    host: "claude",
    title: "SessionEnd clears the session only for /clear: a run that ends may be resumed",
    steps: (root, state) => [
      { event: claudeRead(root, API_HANDLER), has: ["Every handler checks"], check: async () => assert.is((await sessionsIn(state)).length, 1) },
      ...["other", "prompt_input_exit", "logout"].map((reason): Step => ({ event: { hook_event_name: "SessionEnd", reason }, empty: true })),
      {
        event: claudeRead(root, API_HANDLER),
        empty: true,
        why: "nothing again after a resume",
        check: async () => assert.is((await sessionsIn(state)).length, 1),
      },
      { event: { hook_event_name: "SessionEnd", reason: "clear" }, empty: true, check: async () => assert.equal(await sessionsIn(state), []) },
    ],
  },
  {
    host: "claude",
    title: "other tools and events answer nothing",
    steps: () => [
      { event: { hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" } }, empty: true },
      { event: { hook_event_name: "Stop" }, empty: true },
    ],
  },
  {
    host: "claude",
    title: "additionalContext stays under Claude Code's 10,000-character cap",
    setup: (root) => writeFileSync(join(root, "README.md"), "# Big\n\n" + "A sentence that says a little. ".repeat(3000)),
    steps: () => [
      { event: prompt("hello"), has: ["read README.md for the rest"], check: (context) => assert.ok(context.length <= 10_000, `${context.length} characters`) },
    ],
  },
  {
    // #44 item 1: a README trimmed to the cap and the index came again on every prompt and every read of the package.
    host: "claude",
    title: "a trimmed entry and each index line reach the agent once per session: later prompts and reads add only what is new",
    setup: (root) => {
      const long = (name: string) =>
        `# ${name}\n\n${Array.from({ length: 150 }, (_, i) => `Paragraph ${i} of the ${name} package: it retries and logs each step.`).join("\n\n")}\n`;
      write(root, "packages/api/README.md", long("api"));
      write(root, "packages/web/README.md", long("web"));
      write(root, ".cursor/rules/deploys.mdc", "---\ndescription: Deploying to the production clusters\n---\nDeploy on weekdays only. (MARK-DEPLOYS)\n");
      write(
        root,
        "packages/web/.cursor/rules/storybook.mdc",
        "---\ndescription: Storybook stories for the components\n---\nOne story per state. (MARK-STORIES)\n",
      );
    },
    steps: (root) => [
      { event: prompt("fix packages/api/src/handlers/user.ts"), has: ["read packages/api/README.md for the rest", "`.cursor/rules/deploys.mdc`"] },
      {
        event: prompt("write the database migrations safely for packages/api/src/handlers/user.ts"),
        has: ["Never edit a migration that has shipped"],
        lacks: ["packages/api/README.md", "deploys.mdc", "Every handler checks"],
        why: "the trimmed README, the index lines and the handler rule were given: only the migrations rule is new",
      },
      { event: prompt("and once more in packages/api/src/handlers/user.ts"), empty: true, why: "nothing new, not even with room for more of the README" },
      {
        event: claudeRead(root, "packages/web/src/components/Button.tsx"),
        has: ["read packages/web/README.md for the rest", "`packages/web/.cursor/rules/storybook.mdc`"],
        lacks: ["packages/api/README.md", "deploys.mdc"],
        why: "the other package's README once, and of the index only its new line",
      },
      { event: claudeRead(root, "packages/web/src/components/Button.tsx"), empty: true },
    ],
  },
  {
    host: "claude",
    title: "an index line given plain comes again when a later prompt makes it likely relevant, and a likely one not again",
    setup: (root) => {
      write(
        root,
        ".windsurf/rules/realtime.md",
        "---\ntrigger: model_decision\ndescription: Realtime updates over WebSockets and reconnects\n---\nBack off. (MARK-REALTIME)\n",
      );
      write(root, ".cursor/rules/styling.mdc", "---\ndescription: CSS modules, design tokens and dark mode\n---\nNo hex values. (MARK-STYLING)\n");
    },
    steps: () => [
      { event: prompt("hello there"), has: ["`.windsurf/rules/realtime.md`", "`.cursor/rules/styling.mdc`"], lacks: ["Likely relevant"] },
      {
        event: prompt("the database migration breaks live presence and broadcast"),
        has: [/## Likely relevant[^#]*`\.windsurf\/rules\/realtime\.md`/],
        lacks: ["styling.mdc"],
        why: "the likely tier is this prompt's news; the plain line was given",
      },
      { event: prompt("live presence and broadcast break again after the migration"), empty: true, why: "both lines given, the likely one as likely" },
    ],
  },
  {
    host: "claude",
    title: "a warning (the Cursor unquoted glob) is printed once per session, and again in a new session",
    steps: (root) => [
      { event: prompt("tidy packages/web/src/components/Button.tsx"), stderrHas: "typescript.mdc:3: frontmatter is not strict YAML" },
      { event: claudeRead(root, API_HANDLER), stderrLacks: "typescript.mdc" },
      { event: { ...prompt("hello"), session_id: "s-2" }, env: { CTXINJECT_STATE_DIR: folder("hook") }, stderrHas: "typescript.mdc:3" },
    ],
  },

  // Codex
  {
    host: "codex",
    title: "a Bash command that reads a nested file brings its rules and the AGENTS.md Codex does not read below its folder",
    steps: () => [
      {
        event: { hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "sed -n '1,80p' packages/api/src/handler.ts" } },
        has: ["MARK-API-RULE", "MARK-API-AGENTS"],
        lacks: ["MARK-AGENTS-ROOT"],
        why: "the root AGENTS.md is Codex's own",
      },
    ],
  },
  {
    host: "codex",
    title: "a command that names no file answers nothing; the same file again answers nothing",
    steps: () => {
      const cat = { hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "cat src/net/client.ts" } };
      return [
        { event: { hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls -la" } }, empty: true },
        { event: cat, has: ["MARK-NET-RULE"] },
        { event: cat, empty: true },
      ];
    },
  },
  {
    host: "codex",
    title: "apply_patch before the patch: the patched file's rules; PostCompact brings them back",
    steps: () => {
      const patch = {
        hook_event_name: "PreToolUse",
        tool_name: "apply_patch",
        tool_input: { command: "*** Begin Patch\n*** Add File: src/net/retry.ts\n+export {};\n*** End Patch\n" },
      };
      return [
        { event: patch, has: ["MARK-NET-RULE"] },
        { event: patch, empty: true },
        { event: { hook_event_name: "PostCompact" } },
        { event: patch, has: ["MARK-NET-RULE"] },
      ];
    },
  },

  // Gemini CLI
  {
    host: "gemini",
    title: "read_file brings the file's rules and AGENTS.md, not the GEMINI.md Gemini CLI adds itself",
    steps: () => [
      {
        event: { hook_event_name: "AfterTool", tool_name: "read_file", tool_input: { file_path: "packages/api/src/handler.ts" } },
        has: ["MARK-API-RULE", "MARK-API-AGENTS"],
        lacks: ["MARK-GEMINI-API"],
      },
    ],
  },
  {
    // Gemini CLI's just-in-time context (docs/cli/gemini-md.md): the GEMINI.md above a file a tool touches, which the
    // model does to the file the prompt names next. Sent with the prompt too, it arrived twice (#44 item 12's double).
    host: "gemini",
    title: "a prompt naming a nested file brings its rules and AGENTS.md, not the GEMINI.md Gemini CLI adds when the model reads the file",
    steps: () => [
      {
        event: { hook_event_name: "BeforeAgent", prompt: "fix the retry in packages/api/src/handler.ts" },
        has: ["MARK-API-RULE", "MARK-API-AGENTS"],
        lacks: ["MARK-GEMINI-API"],
      },
      {
        event: { hook_event_name: "AfterTool", tool_name: "read_file", tool_input: { file_path: "packages/api/src/handler.ts" } },
        empty: true,
        why: "the read's rules came with the prompt, and its GEMINI.md is Gemini CLI's",
      },
    ],
  },
  {
    host: "gemini",
    title: "BeforeAgent answers for the prompt; other tools and PreCompress answer nothing",
    steps: () => [
      { event: { hook_event_name: "BeforeAgent", prompt: "fix the retry in src/net/client.ts" }, has: ["MARK-NET-RULE"] },
      { event: { hook_event_name: "AfterTool", tool_name: "run_shell_command", tool_input: { command: "cat web/page.tsx" } }, empty: true },
      { event: { hook_event_name: "PreCompress", trigger: "auto" }, empty: true },
      { event: { hook_event_name: "BeforeAgent", prompt: "fix src/net/client.ts" }, empty: true, why: "PreCompress did not reset the session" },
    ],
  },

  // Cline
  {
    host: "cline",
    title: "a prompt naming a file brings its rules as appendContext, not what Cline loads itself; the same prompt again brings nothing",
    steps: () => {
      const run = { hook_event_name: "beforeRun", prompt: '<user_input mode="act">fix the retry in src/net/client.ts</user_input>' };
      return [
        {
          event: run,
          has: ["MARK-NET-RULE"],
          lacks: ["MARK-AGENTS-ROOT", "MARK-CLINERULES", "user_input"],
          why: "Cline reads the root AGENTS.md and applies .clinerules itself; the wrapper is Cline's, not the prompt",
        },
        { event: run, empty: true },
      ];
    },
  },
  {
    host: "cline",
    title: "read_files of a nested file brings its rules and its folder's AGENTS.md once; a tool that names no file brings nothing",
    steps: (root) => {
      const read = { hook_event_name: "afterTool", tool_name: "read_files", tool_input: { file_paths: [join(root, "packages/api/src/handler.ts")] } };
      return [
        { event: read, has: ["MARK-API-RULE", "MARK-API-AGENTS"] },
        { event: read, empty: true },
        { event: { hook_event_name: "afterTool", tool_name: "run_commands", tool_input: { commands: ["ls"] } }, empty: true },
      ];
    },
  },
  {
    host: "cline",
    title: "the editor and apply_patch bring the rules of the file they change",
    steps: () => [
      {
        event: { hook_event_name: "afterTool", tool_name: "editor", tool_input: { command: "create", path: "src/net/retry.ts", new_text: "" } },
        has: ["MARK-NET-RULE"],
      },
      {
        event: {
          hook_event_name: "afterTool",
          tool_name: "apply_patch",
          tool_input: { input: "*** Begin Patch\n*** Update File: packages/api/src/handler.ts\n@@\n-a\n+b\n*** End Patch\n" },
        },
        has: ["MARK-API-RULE"],
      },
    ],
  },
  {
    host: "cline",
    title: "a subagent (its own agent id) gets the rules its task needs though the main agent had them",
    steps: (root) => {
      const read = { hook_event_name: "afterTool", tool_name: "read_files", tool_input: { file_paths: [join(root, "packages/api/src/handler.ts")] } };
      const sub = { agent_id: "agent_1795555871060_vabk8t" };
      return [
        { event: read, has: ["MARK-API-RULE"] },
        { event: { hook_event_name: "beforeRun", prompt: "Explain packages/api/src/handler.ts", ...sub }, has: ["MARK-API-RULE"] },
        { event: { ...read, ...sub }, empty: true, why: "the subagent has had them" },
      ];
    },
  },

  // Qwen Code
  {
    host: "qwen",
    title:
      "SessionStart answers nothing (its text is not kept for a resumed session); the first prompt brings the root rules, not the AGENTS.md Qwen Code loads itself",
    steps: () => [
      { event: { hook_event_name: "SessionStart", source: "startup", model: "gpt-fake" }, empty: true },
      { event: prompt("hello"), has: ["MARK-ROOT-CURSORRULES"], lacks: ["MARK-AGENTS-ROOT"] },
    ],
  },
  {
    host: "qwen",
    title: "a prompt naming a file brings its rules once; the empty prompt Qwen Code sends after a tool result answers nothing",
    steps: () => [
      { event: prompt(""), empty: true, why: "an empty prompt asks for nothing, even in a session that has had nothing yet" },
      { event: prompt("fix the retry in src/net/client.ts"), has: ["MARK-NET-RULE"] },
      { event: prompt(""), empty: true },
      { event: prompt("and src/net/client.ts again"), empty: true, why: "a second prompt repeats nothing" },
    ],
  },
  {
    host: "qwen",
    title: "read_file of a nested file brings its rules and nested AGENTS.md once; PreToolUse answers nothing",
    steps: (root) => {
      const read = {
        hook_event_name: "PostToolUse",
        tool_name: "read_file",
        tool_input: { file_path: join(root, "packages/api/src/handler.ts") },
        tool_response: "export {}",
        tool_use_id: "call_1",
      };
      return [
        { event: { ...read, hook_event_name: "PreToolUse" }, empty: true },
        { event: read, has: ["MARK-API-RULE", "MARK-API-AGENTS"], why: "Qwen Code has no nested discovery" },
        { event: read, empty: true },
      ];
    },
  },

  // Factory Droid
  {
    host: "droid",
    title: "SessionStart brings the root rules once, not the AGENTS.md Droid loads itself",
    steps: () => [
      { event: { hook_event_name: "SessionStart", source: "startup" }, has: ["MARK-ROOT-CURSORRULES"], lacks: ["MARK-AGENTS-ROOT"] },
      { event: { hook_event_name: "SessionStart", source: "resume" }, empty: true, why: "a resumed session repeats nothing" },
    ],
  },
  {
    host: "droid",
    title: "a Read of a nested file brings its rules once, not the nested AGENTS.md Droid adds itself; PreToolUse answers nothing",
    steps: (root) => {
      const read = {
        hook_event_name: "PostToolUse",
        tool_name: "Read",
        tool_input: { file_path: join(root, "packages/api/src/handler.ts") },
        tool_response: "export {}",
      };
      return [
        { event: { ...read, hook_event_name: "PreToolUse" }, empty: true },
        { event: read, has: ["MARK-API-RULE"], lacks: ["MARK-API-AGENTS"] },
        { event: read, empty: true },
      ];
    },
  },
  {
    host: "droid",
    title:
      "UserPromptSubmit (stream-jsonrpc) brings a named nested file's rules, not its AGENTS.md Droid adds when it reads the file; a Create below it then does",
    steps: (root) => [
      {
        event: prompt("fix the bug in packages/api/src/handler.ts"),
        has: ["MARK-API-RULE"],
        lacks: ["MARK-API-AGENTS"],
        why: "Droid appends it to the Read of that file",
      },
      {
        event: { hook_event_name: "PostToolUse", tool_name: "Create", tool_input: { file_path: join(root, "packages/api/src/new.ts") } },
        has: ["MARK-API-AGENTS"],
        why: "no read brought it",
      },
    ],
  },
  {
    host: "droid",
    title: "an ApplyPatch brings the patched file's rules",
    steps: () => [
      {
        event: {
          hook_event_name: "PostToolUse",
          tool_name: "ApplyPatch",
          tool_input: { input: "*** Begin Patch\n*** Update File: src/net/client.ts\n@@\n-a\n+b\n*** End Patch\n" },
        },
        has: ["MARK-NET-RULE"],
      },
    ],
  },

  // Copilot CLI
  {
    host: "copilot",
    title: "a prompt naming a file brings its rules at the top of the answer, not the AGENTS.md Copilot CLI loads itself",
    steps: () => [
      {
        event: prompt("fix the retry in src/net/client.ts"),
        has: ["MARK-NET-RULE", "MARK-ROOT-CURSORRULES"],
        lacks: ["MARK-AGENTS-ROOT"],
        why: "the root AGENTS.md is Copilot CLI's own",
      },
      { event: prompt("fix the retry in src/net/client.ts"), empty: true, why: "once per session" },
    ],
  },
  {
    host: "copilot",
    title: "a Read of a nested file brings its rules, not the AGENTS.md and CLAUDE.md Copilot CLI adds itself after a read",
    steps: (root) => {
      const read = {
        hook_event_name: "PostToolUse",
        tool_name: "Read",
        tool_input: { path: join(root, "packages/api/src/handler.ts") },
        tool_result: { result_type: "success", text_result_for_llm: "export function handle(): void {}\n" },
      };
      return [
        { event: read, has: ["MARK-API-RULE"], lacks: ["MARK-API-AGENTS", "MARK-CLAUDE-API"] },
        { event: read, empty: true, why: "the same read again adds nothing" },
      ];
    },
  },
  {
    host: "copilot",
    title: "an Edit of a file brings its rules; a tool that names no file answers nothing",
    steps: (root) => [
      { event: { hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" } }, empty: true },
      {
        event: { hook_event_name: "PostToolUse", tool_name: "Edit", tool_input: { path: join(root, "src/net/client.ts"), old_str: "a", new_str: "b" } },
        has: ["MARK-NET-RULE"],
      },
    ],
  },
  {
    host: "copilot",
    title: "apply_patch (named Edit, its input the patch text) brings the patched file's rules and the nested AGENTS.md Copilot CLI does not add after an edit",
    steps: () => [
      {
        event: {
          hook_event_name: "PostToolUse",
          tool_name: "Edit",
          tool_input:
            "*** Begin Patch\n*** Update File: packages/api/src/handler.ts\n@@\n-export function handle(): void {}\n+export function handle(): number {\n+  return 0;\n+}\n*** End Patch\n",
          tool_result: { result_type: "success", text_result_for_llm: "Modified 1 file(s)" },
        },
        has: ["MARK-API-RULE", "MARK-API-AGENTS"],
      },
    ],
  },
  {
    host: "copilot",
    title: "a prompt naming a nested file brings its rules, not its AGENTS.md Copilot CLI adds when it reads the file; an edit without a read then does",
    steps: (root) => [
      {
        event: prompt("fix the bug in packages/api/src/handler.ts"),
        has: ["MARK-API-RULE"],
        lacks: ["MARK-API-AGENTS"],
        why: "Copilot CLI adds it to the read of that file",
      },
      {
        event: {
          hook_event_name: "PostToolUse",
          tool_name: "Edit",
          tool_input: { path: join(root, "packages/api/src/handler.ts"), old_str: "a", new_str: "b" },
        },
        has: ["MARK-API-AGENTS"],
        why: "no read brought it",
      },
    ],
  },
  {
    host: "copilot",
    title: "a prompt naming only a nested folder keeps its AGENTS.md (a folder is not a read of a file below it)",
    steps: () => [{ event: prompt("what lives in packages/api/?"), has: ["MARK-API-AGENTS"] }],
  },
  {
    host: "copilot",
    title: "a Bash command that reads a nested file brings its rules and nested AGENTS.md (Copilot CLI adds nothing after a shell read)",
    steps: () => [
      {
        event: {
          hook_event_name: "PostToolUse",
          tool_name: "Bash",
          tool_input: { command: "cat packages/api/src/handler.ts", description: "read", mode: "sync", initial_wait: 10 },
        },
        has: ["MARK-API-AGENTS"],
      },
    ],
  },
  {
    host: "copilot",
    title: "a subagent's prompt (its own session_id, as Copilot CLI sends it) gets the rules the main session already had",
    steps: () => {
      const sub = "de36f915-1f68-4431-9df3-c359498c8465";
      return [
        { event: prompt("look at packages/api/src/handler.ts"), has: ["MARK-API-RULE"] },
        {
          event: {
            ...prompt("Summarise packages/api/src/handler.ts"),
            session_id: sub,
            agent_id: sub,
            agent_type: "explore",
            parent_agent_id: "0d6c1f1e-copilot",
          },
          has: ["MARK-API-RULE"],
        },
      ];
    },
  },
  {
    host: "copilot",
    title: "`hook copilot-cli` (the profile's name) is the same hook",
    steps: () => [{ event: prompt("look at src/net/client.ts"), as: "copilot-cli", has: ["MARK-NET-RULE"] }],
  },
  {
    host: "copilot",
    title: "Copilot CLI also runs Claude Code's hooks; `hook claude` run by it answers nothing, so nothing is claimed twice or lost",
    steps: () => [
      { event: prompt("fix the retry in src/net/client.ts"), as: "claude", empty: true },
      { event: prompt("fix the retry in src/net/client.ts"), has: ["MARK-NET-RULE"], why: "the copilot hook still has every rule to give" },
      {
        event: { ...prompt("fix the retry in src/net/client.ts"), session_id: "claude-own" },
        as: "claude",
        env: { COPILOT_CLI: "" },
        has: ["MARK-NET-RULE"],
        why: "in Claude Code itself nothing changes",
      },
    ],
  },

  // Cursor's CLI (from cursor-hook.test.ts)
  {
    host: "cursor",
    title: "sessionStart answers additional_context with the always-on rules, leaving out what Cursor loads itself",
    steps: () => [
      {
        event: { hook_event_name: "sessionStart", session_id: "conv-1", is_background_agent: false, composer_mode: "agent" },
        has: ["MARK-COPILOT-ALWAYS"],
        lacks: ["MARK-ROOT-CURSORRULES", "MARK-AGENTS-ROOT"],
        why: "Cursor reads .cursorrules and the root AGENTS.md itself",
      },
    ],
  },
  {
    host: "cursor",
    title: "beforeSubmitPrompt brings a named file's rules (continue: true), once per conversation; Cursor's own rules are left out",
    steps: () => [
      {
        event: { hook_event_name: "beforeSubmitPrompt", prompt: "tidy web/page.tsx and src/net/client.ts", attachments: [] },
        has: ["MARK-CLAUDE-PATHS"],
        lacks: ["MARK-NET-RULE"],
        why: ".cursor/rules are Cursor's own",
      },
      {
        event: { hook_event_name: "beforeSubmitPrompt", prompt: "and web/page.tsx again", attachments: [] },
        empty: true,
        why: "the same conversation: nothing again",
      },
    ],
  },
  {
    host: "cursor",
    title: "a file attached to the prompt brings its rules",
    steps: (root) => [
      {
        event: { hook_event_name: "beforeSubmitPrompt", prompt: "what is this?", attachments: [{ type: "file", file_path: join(root, "web/page.tsx") }] },
        has: ["MARK-CLAUDE-PATHS"],
      },
    ],
  },
  {
    host: "cursor",
    title: "tool and stop events answer nothing",
    steps: (root) => [
      { event: { hook_event_name: "postToolUse", tool_name: "Read", tool_input: { file_path: join(root, "web/page.tsx") }, tool_output: "{}" }, empty: true },
      { event: { hook_event_name: "stop", status: "completed" }, empty: true },
    ],
  },
];

for (const c of CASES) {
  test(`${c.host}: ${c.title}`, async () => {
    const { root, state, hook } = hookCase(c.host);
    c.setup?.(root);
    for (const [i, step] of c.steps(root, state).entries()) {
      const where = `step ${i + 1}${step.why ? ` (${step.why})` : ""}`;
      const out = await hook(step.event, { ...(step.as !== undefined && { as: step.as }), ...(step.env && { env: step.env }) });
      assert.is(out.status, 0, `${where}: ${out.stderr}`);
      if (step.stderrHas !== undefined) assert.match(out.stderr, step.stderrHas, where);
      if (step.stderrLacks !== undefined) assert.not.match(out.stderr, step.stderrLacks, where);
      if (step.empty) {
        assert.is(out.stdout, "", where);
        await step.check?.("", out);
        continue;
      }
      if (!step.has && !step.lacks && !step.check) continue;
      // The answer is in the shape of the host that answered it (`hook claude` answers as Claude Code).
      const answering = step.as !== undefined ? hookHost(step.as)!.short : c.host;
      const context = contextOf(answering, String(step.event.hook_event_name), out.stdout);
      for (const text of step.has ?? []) assert.match(context, text, where);
      for (const text of step.lacks ?? []) assert.not.match(context, text, where);
      await step.check?.(context, out);
    }
  });
}

// --- What no event table says: deadlines, a user's config mistake, bad input, an unknown host ---

test("claude: past its deadline (config hookDeadlineMs) a hook answers with what it read by then, exits 0, and loses nothing", async () => {
  const { root, state, hook } = hookCase("claude");
  config(root, { hookDeadlineMs: 1 });
  const registered = await runMain(["register", "--session", "s-1", "--source", "git-hook", "--id", "late", "--content", "Late note MARK-LATE."], {
    env: { CTXINJECT_STATE_DIR: state },
  });
  assert.is(registered.status, 0, registered.stderr);
  const late = await hook(prompt("tidy packages/web/src/components/Button.tsx"), { startedAt: Date.now() - 5 });
  assert.is(late.status, 0, late.stderr);
  // A small tree is read and redacted whole whatever the clock says (the least any answer holds): nothing is lost.
  const context = contextOf("claude", "UserPromptSubmit", late.stdout);
  assert.match(context, "MARK-LATE");
  assert.match(context, "Keep functions short");
  const pending = JSON.parse((await runMain(["pending", "--session", "s-1", "--format", "json"], { env: { CTXINJECT_STATE_DIR: state } })).stdout) as {
    entries: Array<{ content: string }>;
  };
  assert.equal(pending.entries, [], "the session's entry was given");
});

test("claude: a tree made slow on purpose (8,000 rules on the target's path) stops reading at the deadline and answers with the rules nearer the root", async () => {
  const { root, hook } = hookCase("claude");
  const rules = join(root, "packages/web/.cursor/rules/bulk");
  mkdirSync(rules, { recursive: true });
  for (let i = 0; i < 8000; i++)
    writeFileSync(join(rules, `rule-${i}.mdc`), `---\nglobs: "src/**/*.tsx"\n---\nGenerated rule ${i}: keep component ${i} pure.\n`);
  config(root, { hookDeadlineMs: 150 });
  const started = Date.now();
  // The hook began 145 ms ago (its host's clock): the deadline falls inside the reading whatever this machine's speed.
  const { status, stdout, stderr } = await hook(prompt("tidy packages/web/src/components/Button.tsx"), { startedAt: started - 145 });
  const took = Date.now() - started;
  assert.is(status, 0);
  assert.match(stderr, /stopped at the 150 ms deadline \(config hookDeadlineMs\): \d+ of 80\d\d files not read/);
  assert.match(contextOf("claude", "UserPromptSubmit", stdout), "Keep functions short", "the root's rules are read first");
  assert.ok(took < 5000, `answered in ${took} ms`);
});

test("claude: a config error reaches the user as a systemMessage, and the prompt goes through (exit 0)", async () => {
  const { root, hook } = hookCase("claude");
  config(root, '{ "claude": { "maxChars": 30000 } }');
  const result = await hook({ ...prompt("x"), session_id: "s" });
  assert.is(result.status, 0);
  const answer = JSON.parse(result.stdout) as { systemMessage: string };
  assert.match(answer.systemMessage, /^ctxinject: .*\.ctxinjectrc\.json: "claude\.maxChars" must be a whole number from 100 to 10000, got number 30000/);
});

test("claude: bad input or a failure of its own: nothing on stdout, one line on stderr, never exit 2", async () => {
  const env = { CTXINJECT_STATE_DIR: folder("hook") };
  for (const input of ["not json", "[]", JSON.stringify(prompt("x")), ""]) {
    const result = await runMain(["hook", "claude"], { cwd: "/", env, input });
    assert.is(result.stdout, "", input);
    assert.is(result.status, 1, input);
    assert.match(result.stderr, /^ctxinject hook claude: .+\n$/, input);
  }
});

test("hook with an unknown agent names the ones there are", async () => {
  const out = await runMain(["hook", "windsurf"], { input: "{}" });
  assert.is(out.status, 1);
  assert.match(out.stderr, `expected: ${COMMAND_HOOK_HOSTS.map((h) => h.short).join(", ")}`);
});

test.run();
