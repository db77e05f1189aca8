import { droid } from "../core/agents/droid.js";
import { additionalContext, filePathOf, sampleFile, type CommandHookHost } from "./host.js";
import { patchOf, patchTargets } from "./tool-targets.js";

const FILE_TOOLS = new Set(["Read", "Edit", "MultiEdit", "Create"]);

/**
 * Factory Droid (`ctxinject hook droid`), whose hooks are Claude Code's format in .factory/settings.json (proven
 * with 0.215.0 in `droid exec` and in its stream-jsonrpc mode, test/hosts/droid.test.ts):
 * - SessionStart: the root context, before the first request; after compact a digest;
 * - UserPromptSubmit: what `build` gives for the prompt, with that prompt's request. It fires in stream-jsonrpc (the
 *   headless mode editors drive) for every prompt, and its text reaches the model; `droid exec` with a prompt as
 *   argument never fires it, so there a prompt's targets arrive only as its tools touch them;
 * - PostToolUse on Read, Edit, MultiEdit, Create, ApplyPatch: the files' rules (Droid adds the AGENTS.md and
 *   CLAUDE.md above a file it reads itself, so they are left out, and left out at prompt time for a file the prompt
 *   names: the agent reads it next).
 * Not PreToolUse: Droid runs it but drops its text.
 */
export const droidHost: CommandHookHost = {
  name: "droid",
  short: "droid",
  label: "Factory Droid",
  profile: droid,
  hook: {
    action(event) {
      const name = event.hook_event_name;
      if (name === "SessionStart") return event.source === "compact" ? { digest: true } : { select: {} };
      if (name === "UserPromptSubmit") return typeof event.prompt === "string" ? { select: { prompt: event.prompt } } : null;
      if (name !== "PostToolUse") return null;
      const tool = event.tool_name ?? "";
      const patch = tool === "ApplyPatch" ? patchOf(event.tool_input) : undefined;
      if (patch !== undefined) {
        const files = patchTargets(patch);
        return files.length > 0 ? { select: { files } } : null;
      }
      const file = filePathOf(event.tool_input);
      return FILE_TOOLS.has(tool) && file ? { select: { files: [file], readByAgent: tool === "Read" } } : null;
    },
    answer: additionalContext,
  },
  install: {
    /** Droid sets $FACTORY_PROJECT_DIR for its hooks (its docs' way to reach project scripts); timeouts in seconds. */
    settings: {
      project: ".factory/settings.json",
      user: ".factory/settings.json",
      events: [{ event: "SessionStart" }, { event: "UserPromptSubmit" }, { event: "PostToolUse", matcher: "Read|Edit|MultiEdit|Create|ApplyPatch" }],
      timeout: 10,
      projectDir: { variable: "FACTORY_PROJECT_DIR" },
    },
  },
  markers: [".factory/"],
  samples: [
    { label: "SessionStart", event: () => ({ hook_event_name: "SessionStart", source: "startup" }) },
    { label: "UserPromptSubmit", event: ({ prompt }) => ({ hook_event_name: "UserPromptSubmit", prompt }) },
    { label: "PostToolUse (Read)", event: (place) => ({ hook_event_name: "PostToolUse", tool_name: "Read", tool_input: { file_path: sampleFile(place) } }) },
  ],
};
