import { droid } from "../core/agents/droid.js";
import { additionalContext, filePathOf, sampleFile, type CommandHookHost } from "./host.js";
import { patchOf, patchTargets } from "./tool-targets.js";

const FILE_TOOLS = new Set(["Read", "Edit", "MultiEdit", "Create"]);

/**
 * Factory Droid (`ctxinject hook droid`), whose hooks are Claude Code's format in .factory/settings.json (proven
 * with 0.215.0 in `droid exec`, test/hosts/droid.test.ts):
 * - SessionStart: the root context, the only channel before the first request (`droid exec` never fires
 *   UserPromptSubmit, so the prompt's own targets arrive only as its tools touch them); after compact a digest;
 * - PostToolUse on Read, Edit, MultiEdit, Create, ApplyPatch: the files' rules (Droid adds the AGENTS.md and
 *   CLAUDE.md above a file it reads itself).
 * Not PreToolUse: Droid runs it but drops its text. Not UserPromptSubmit: unproven where it fires (interactive,
 * stream-jsonrpc), and an answer recorded as injected that never reached the model would keep those rules away.
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
      events: [{ event: "SessionStart" }, { event: "PostToolUse", matcher: "Read|Edit|MultiEdit|Create|ApplyPatch" }],
      timeout: 10,
      projectDir: { variable: "FACTORY_PROJECT_DIR" },
    },
  },
  markers: [".factory/"],
  samples: [
    { label: "SessionStart", event: () => ({ hook_event_name: "SessionStart", source: "startup" }) },
    { label: "PostToolUse (Read)", event: (place) => ({ hook_event_name: "PostToolUse", tool_name: "Read", tool_input: { file_path: sampleFile(place) } }) },
  ],
};
