import { qwenCode } from "../core/agents/qwen-code.js";
import { additionalContext, filePathOf, sampleFile, type CommandHookHost } from "./host.js";

/** Qwen Code's file tools (its `ToolNames`); each names the file in `file_path`. */
const READ_TOOLS = new Set(["read_file"]);
const FILE_TOOLS = new Set(["read_file", "edit", "write_file"]);

/**
 * Qwen Code (`ctxinject hook qwen`), whose hooks are Claude Code's format in .qwen/settings.json (proven with
 * 0.24.4, test/hosts/qwen.test.ts):
 * - SessionStart only after compact (a digest of what was in force) and /clear (the rules come back): its text
 *   reaches the requests of that run only, not the saved conversation, so a resumed session (`--resume`) would
 *   lack what it carried while ctxinject counts it as sent;
 * - UserPromptSubmit: what `build` gives for the prompt, the root's rules with it (kept in the conversation). Qwen
 *   Code fires it again with an empty prompt after every tool result and adds whatever it answers there: an empty
 *   prompt asks for nothing;
 * - PostToolUse on read_file, edit, write_file: the file's rules and the AGENTS.md above it (Qwen Code has no nested
 *   discovery: it loads QWEN.md and AGENTS.md from the working folder up, at start, and nothing after a read).
 * Not PreToolUse or SubagentStart: 0.24.4 drops their text.
 */
export const qwenCodeHost: CommandHookHost = {
  name: "qwen-code",
  short: "qwen",
  label: "Qwen Code",
  profile: qwenCode,
  hook: {
    action(event) {
      const name = event.hook_event_name;
      if (name === "SessionStart") return event.source === "compact" ? { digest: true } : event.source === "clear" ? { reset: "injected" } : null;
      if (name === "UserPromptSubmit") return typeof event.prompt === "string" && event.prompt.trim() !== "" ? { select: { prompt: event.prompt } } : null;
      if (name !== "PostToolUse") return null;
      const tool = event.tool_name ?? "";
      const file = filePathOf(event.tool_input);
      return FILE_TOOLS.has(tool) && file ? { select: { files: [file], readByAgent: READ_TOOLS.has(tool) } } : null;
    },
    answer: additionalContext,
  },
  install: {
    /**
     * Qwen Code reads the project's .qwen/settings.json in the folder it starts in and runs hooks there (it also
     * sets $QWEN_PROJECT_DIR to that folder, but rewrites it into a quoted path for cmd.exe and PowerShell).
     * Its timeout is in seconds (milliseconds are a legacy form it warns about).
     */
    settings: {
      project: ".qwen/settings.json",
      user: ".qwen/settings.json",
      events: [{ event: "SessionStart" }, { event: "UserPromptSubmit" }, { event: "PostToolUse", matcher: "read_file|edit|write_file" }],
      timeout: 10,
      projectDir: "cwd",
    },
  },
  markers: [".qwen/", "QWEN.md"],
  samples: [
    { label: "UserPromptSubmit", event: ({ prompt }) => ({ hook_event_name: "UserPromptSubmit", prompt }) },
    {
      label: "PostToolUse (read_file)",
      event: (place) => ({ hook_event_name: "PostToolUse", tool_name: "read_file", tool_input: { file_path: sampleFile(place) } }),
    },
  ],
};
