import { additionalContext, filePathOf, type HookHost } from "./command-hook.js";

/** Gemini CLI's file tools; their `file_path` (or `absolute_path`) is the file touched. */
const FILE_TOOLS = new Set(["read_file", "write_file", "replace", "edit"]);

/**
 * Gemini CLI (`ctxinject hook gemini`), whose hooks read Claude-like JSON under its own event names:
 * - BeforeAgent: what `build` gives for the prompt;
 * - AfterTool on read_file, write_file, replace, read_many_files: the touched files' rules, appended to the tool
 *   result (Gemini CLI adds the GEMINI.md files above them itself);
 * - SessionStart after /clear: the rules come back. Not PreCompress: 0.61.0 fires it at the end of every
 *   `gemini -p` turn, whether or not anything is compressed, and it has no event after a real compression.
 */
export const geminiHost: HookHost = {
  name: "gemini",
  agent: "gemini-cli",
  includeNative: (config) => config.gemini.includeNative,
  action(event) {
    const name = event.hook_event_name;
    if (name === "SessionStart") return event.source === "clear" ? { reset: "injected" } : null;
    if (name === "BeforeAgent" && typeof event.prompt === "string") return { select: { prompt: event.prompt } };
    if (name !== "AfterTool") return null;
    const tool = event.tool_name ?? "";
    if (tool === "read_many_files") {
      const paths = event.tool_input?.paths ?? event.tool_input?.include;
      const files = Array.isArray(paths) ? paths.filter((p): p is string => typeof p === "string" && !/[*?[{]/.test(p)) : [];
      return files.length > 0 ? { select: { files, readByAgent: true } } : null;
    }
    const file = filePathOf(event.tool_input);
    return FILE_TOOLS.has(tool) && file ? { select: { files: [file], readByAgent: true } } : null;
  },
  answer: additionalContext,
};
