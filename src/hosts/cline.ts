import { cline } from "../core/agents/cline.js";
import { filePathOf, sampleFile, strings, type HookAnsweringHost } from "./host.js";
import { patchTargets } from "./tool-targets.js";

/** Where Cline loads a project's plugins from (`.cline/plugins/*.js`); the user's are in `~/.cline/plugins`. */
export const CLINE_PLUGIN_FILE = ".cline/plugins/ctxinject.js";

/**
 * Cline CLI wraps the user's text in `<user_input mode="act">…</user_input>` before the run's hooks see it; a
 * subagent's task comes bare.
 */
const unwrapped = (prompt: string): string => {
  const match = /^\s*<user_input\b[^>]*>([\s\S]*?)<\/user_input>\s*$/.exec(prompt);
  return match ? match[1]! : prompt;
};

/** The files a Cline tool call touched: its read tool takes several, its editor one, apply_patch names them in the patch. */
function toolFiles(tool: string, input: Record<string, unknown> | undefined): string[] {
  if (tool === "read_files") return strings(input?.file_paths) ?? [];
  if (tool === "editor") {
    const file = filePathOf(input);
    return file ? [file] : [];
  }
  if (tool === "apply_patch") return typeof input?.input === "string" ? patchTargets(input.input) : [];
  return [];
}

/**
 * Cline CLI (`ctxinject hook cline`), reached through a project plugin (`.cline/plugins/ctxinject.js`, written by
 * io/host-setup/cline-setup.ts) that hands each event over as JSON, not through `.clinerules/hooks` executables: the plugin's
 * `beforeRun` sees the run's prompt and is awaited (the hook files' TaskStart is not, and UserPromptSubmit does not
 * fire headless); it runs for every subagent too, with the subagent's own id and task; and its `afterTool`
 * replaces a PostToolUse hook file's text for the same call anyway. Events (the plugin's shape, Claude's field
 * names):
 * - beforeRun: what `build` gives for the prompt (the main agent's, or a subagent's task), as `appendContext`;
 * - afterTool on read_files, editor and apply_patch: the rules of the files touched.
 * Each agent is its own conversation (`agent_id` set for a subagent): a subagent gets its own rules.
 */
export const clineHost: HookAnsweringHost = {
  name: "cline",
  short: "cline",
  label: "Cline CLI",
  profile: cline,
  hook: {
    action(event) {
      const name = event.hook_event_name;
      if (name === "beforeRun") return { select: typeof event.prompt === "string" ? { prompt: unwrapped(event.prompt) } : {} };
      if (name === "afterTool") {
        const tool = event.tool_name ?? "";
        const files = toolFiles(tool, event.tool_input);
        return files.length > 0 ? { select: { files, readByAgent: tool === "read_files" } } : null;
      }
      return null;
    },
    answer: (_event, context) => ({ appendContext: context }),
  },
  install: { pluginFile: { file: CLINE_PLUGIN_FILE, writes: CLINE_PLUGIN_FILE } },
  markers: [".cline/", ".clinerules"],
  // What the Cline plugin hands over (io/host-setup/cline-setup.ts): a run's start with its prompt, a read_files result.
  samples: [
    { label: "beforeRun", event: ({ prompt }) => ({ hook_event_name: "beforeRun", prompt: `<user_input mode="act">${prompt}</user_input>` }) },
    {
      label: "afterTool (read_files)",
      event: (place) => ({ hook_event_name: "afterTool", tool_name: "read_files", tool_input: { file_paths: [sampleFile(place)] } }),
    },
  ],
};
