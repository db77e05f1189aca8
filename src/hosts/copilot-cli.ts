import { copilotCli } from "../core/agents/copilot-cli.js";
import { filePathOf, sampleFile, type CommandHookHost } from "./host.js";
import { patchTargets } from "./tool-targets.js";

/**
 * Copilot CLI's tools as it names them to a hook configured Claude's way: view is Read; apply_patch (what it offers
 * GPT models; its input is the patch text itself), edit and create are Edit or Write; its shell is Bash.
 */
const READ_TOOLS = new Set(["Read"]);
const WRITE_TOOLS = new Set(["Edit", "Write"]);

/**
 * GitHub Copilot CLI (`ctxinject hook copilot`; `copilot` alone stays GitHub Copilot of the IDE for `--as`).
 * Its hooks are installed under Claude Code's PascalCase event names: Copilot CLI then hands them Claude's
 * snake_case input (`hook_event_name`, `session_id`, `tool_name: "Read"`, `tool_input.path`), which the other hosts'
 * events share; it reads the answer's top-level `additionalContext` (not hookSpecificOutput) on these events.
 * - UserPromptSubmit: what `build` gives for the prompt (it reaches the first request, with sessionStart's);
 * - PostToolUse, in the request after the tool: on Read, the file's rules (Copilot CLI adds the AGENTS.md,
 *   CLAUDE.md, GEMINI.md of its folders and the matching .github/instructions itself after its own read, so those are
 *   left out); on Edit and Write (apply_patch too), the files' rules and nested AGENTS.md, which it does not add
 *   after an edit; on Bash, those of the files the command names that exist (it adds nothing after a shell read);
 * A subagent (its task tool) is a session of its own to these hooks: its prompt fires UserPromptSubmit with the
 * subagent's id as session_id, so it gets its own rules. Not SubagentStart, whose input is camelCase without a
 * session_id (its text would be prepended to that same prompt). Not sessionStart: its text reaches the same first
 * request as the prompt's, which already carries everything.
 * Not preToolUse: its text arrives after the tool ran, as postToolUse's does.
 */
export const copilotCliHost: CommandHookHost = {
  name: "copilot-cli",
  short: "copilot",
  label: "Copilot CLI",
  profile: copilotCli,
  hook: {
    action(event) {
      const name = event.hook_event_name;
      if (name === "UserPromptSubmit" && typeof event.prompt === "string") return { select: { prompt: event.prompt } };
      if (name !== "PostToolUse") return null;
      const tool = event.tool_name ?? "";
      const input: unknown = event.tool_input;
      if (tool === "Bash") return typeof event.tool_input?.command === "string" ? { mentions: event.tool_input.command } : null;
      if (typeof input === "string") {
        const files = WRITE_TOOLS.has(tool) ? patchTargets(input) : [];
        return files.length > 0 ? { select: { files } } : null;
      }
      const file = filePathOf(event.tool_input);
      if (!file) return null;
      if (READ_TOOLS.has(tool)) return { select: { files: [file], readByAgent: true } };
      return WRITE_TOOLS.has(tool) ? { select: { files: [file] } } : null;
    },
    answer: (_event, context) => ({ additionalContext: context }),
  },
  install: {
    /**
     * Copilot CLI loads every `.github/hooks/*.json` of a trusted folder and `$COPILOT_HOME/hooks/*.json`: the file is
     * ctxinject's own. It sets $COPILOT_PROJECT_DIR for its hooks.
     */
    settings: {
      project: ".github/hooks/ctxinject.json",
      user: ".copilot/hooks/ctxinject.json",
      userVariable: { name: "COPILOT_HOME", file: "hooks/ctxinject.json" },
      fields: { version: 1 },
      events: [{ event: "UserPromptSubmit" }, { event: "PostToolUse", matcher: "Read|Edit|Write|Bash" }],
      timeout: 10,
      projectDir: { variable: "COPILOT_PROJECT_DIR" },
    },
    // Without trust Copilot CLI skips a repository's hooks without a word.
    note: "Copilot CLI runs a repository's hooks only in a folder you trust: answer its trust prompt once (or add the folder to trustedFolders in ~/.copilot/config.json)",
  },
  markers: [".github/hooks/", ".github/copilot-instructions.md"],
  runsHook: (env) => env.COPILOT_CLI === "1",
  // Copilot CLI names the file a Read took `path`, as recorded from 1.0.102.
  samples: [
    { label: "UserPromptSubmit", event: ({ prompt }) => ({ hook_event_name: "UserPromptSubmit", prompt }) },
    { label: "PostToolUse (Read)", event: (place) => ({ hook_event_name: "PostToolUse", tool_name: "Read", tool_input: { path: sampleFile(place) } }) },
  ],
};
