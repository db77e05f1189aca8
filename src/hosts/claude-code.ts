import { claudeCode } from "../core/agents/claude-code.js";
import { additionalContext, filePathOf, sampleFile, type CommandHookHost } from "./host.js";

/** Tools that write a file: its rules are wanted before the write (PreToolUse), and after it where that is too late. */
const WRITE_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);
const READ_TOOLS = new Set(["Read"]);
const CAP = claudeCode.maxChars ?? 10_000;

/**
 * Claude Code (`ctxinject hook claude`):
 * - UserPromptSubmit: what `build` gives for the prompt (paths and `@path` mentions in it are targets);
 * - PreToolUse on a writing tool: that file's rules before the write; PostToolUse on Read (and writes): its rules;
 * - SubagentStart: the root context, for the subagent's own bookkeeping;
 * - SessionStart after compact: the session forgets what it has seen and gets a digest of what was in force; after
 *   clear it only forgets; SessionEnd clears only for /clear
 *   (a `claude -p` run ends with reason "other" and may be resumed: what it injected stays injected).
 * Its cap on additionalContext is config claude.maxChars (default: the profile's cap less room to spare).
 */
export const claudeCodeHost: CommandHookHost = {
  name: "claude-code",
  short: "claude",
  label: "Claude Code",
  profile: claudeCode,
  // Claude Code cuts additionalContext above its cap (the profile's): stay under it with room to spare.
  maxCharsSetting: { cap: CAP, default: CAP - 500, doc: "cap on Claude Code's `additionalContext`" },
  hook: {
    action(event) {
      const name = event.hook_event_name;
      if (name === "SessionStart") return event.source === "compact" ? { digest: true } : event.source === "clear" ? { reset: "injected" } : null;
      if (name === "SessionEnd") return event.reason === "clear" ? { reset: "session" } : null;
      const file = filePathOf(event.tool_input);
      const tool = event.tool_name ?? "";
      if (name === "UserPromptSubmit" && typeof event.prompt === "string") return { select: { prompt: event.prompt } };
      if (name === "PreToolUse" && WRITE_TOOLS.has(tool) && file) return { select: { files: [file] } };
      if (name === "PostToolUse" && (READ_TOOLS.has(tool) || WRITE_TOOLS.has(tool)) && file) return { select: { files: [file] } };
      if (name === "SubagentStart") return { select: {} };
      return null;
    },
    answer: additionalContext,
  },
  install: {
    settings: {
      project: ".claude/settings.json",
      user: ".claude/settings.json",
      events: [
        { event: "UserPromptSubmit" },
        { event: "PreToolUse", matcher: "Write|Edit|MultiEdit|NotebookEdit" },
        { event: "PostToolUse", matcher: "Read|Write|Edit|MultiEdit|NotebookEdit" },
        { event: "SubagentStart" },
        { event: "SessionStart" },
        { event: "SessionEnd" },
      ],
      timeout: 10,
      projectDir: { variable: "CLAUDE_PROJECT_DIR" },
    },
  },
  markers: [".claude/", "CLAUDE.md", "CLAUDE.local.md"],
  samples: [
    { label: "UserPromptSubmit", event: ({ prompt }) => ({ hook_event_name: "UserPromptSubmit", prompt }) },
    { label: "PostToolUse (Read)", event: (place) => ({ hook_event_name: "PostToolUse", tool_name: "Read", tool_input: { file_path: sampleFile(place) } }) },
  ],
};
