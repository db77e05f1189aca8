import { geminiCli, geminiCliProfile } from "../core/agents/gemini-cli.js";
import { additionalContext, filePathOf, strings, type CommandHookHost } from "./host.js";

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
export const geminiCliHost: CommandHookHost = {
  name: "gemini-cli",
  short: "gemini",
  label: "Gemini CLI",
  profile: geminiCli,
  configure: geminiCliProfile,
  /**
   * `context.fileName` (`contextFileName` is the setting's older place), in Gemini CLI's precedence: the system's
   * settings over the project's over the user's over the system's defaults.
   */
  readSettings(files) {
    const system =
      files.platform === "darwin" ? "/Library/Application Support/GeminiCli" : files.platform === "win32" ? "C:\\ProgramData\\gemini-cli" : "/etc/gemini-cli";
    const candidates = [
      files.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || files.under(system, "settings.json"),
      files.under(files.root, ".gemini/settings.json"),
      files.under(files.home, ".gemini/settings.json"),
      files.env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH || files.under(system, "system-defaults.json"),
    ];
    for (const file of candidates) {
      const value = files.json(file);
      const context = value?.context as Record<string, unknown> | undefined;
      const names = strings(context?.fileName) ?? strings(value?.contextFileName);
      if (names?.length) return { contextFileNames: names, from: files.shown(file) };
    }
    return undefined;
  },
  hook: {
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
  },
  install: {
    /**
     * Gemini CLI reads the project's .gemini/settings.json in the folder it starts in, and runs hooks there. Its own
     * $GEMINI_PROJECT_DIR is no better: it replaces the text with a shell-quoted path before the shell runs, which a
     * path with a space would break inside our quotes.
     */
    settings: {
      project: ".gemini/settings.json",
      user: ".gemini/settings.json",
      events: [{ event: "BeforeAgent" }, { event: "AfterTool", matcher: "read_file|write_file|replace|read_many_files" }, { event: "SessionStart" }],
      timeout: 10_000,
      projectDir: "cwd",
    },
  },
  markers: [".gemini/", "GEMINI.md"],
  samples: [
    { label: "BeforeAgent", event: ({ prompt }) => ({ hook_event_name: "BeforeAgent", prompt }) },
    // Gemini CLI names the file as the model wrote it: relative to the project here.
    { label: "AfterTool (read_file)", event: ({ file }) => ({ hook_event_name: "AfterTool", tool_name: "read_file", tool_input: { file_path: file } }) },
  ],
};
