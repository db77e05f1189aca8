import { additionalContext, type HookEvent, type HookHost } from "./command-hook.js";
import { patchTargets } from "./tool-targets.js";

/** The patch text of an apply_patch call, whichever field carries it. */
function patchOf(input: HookEvent["tool_input"]): string | undefined {
  return Object.values(input ?? {}).find((v): v is string => typeof v === "string" && v.includes("*** Begin Patch"));
}

/**
 * Codex (`ctxinject hook codex`), whose command hooks share Claude Code's wire format:
 * - UserPromptSubmit: what `build` gives for the prompt;
 * - PreToolUse on apply_patch: the patched files' rules before the patch; PostToolUse on apply_patch too (a
 *   patch is Codex's only edit), and on Bash: the files the command names that exist (Codex reads files with
 *   `cat`, `sed -n`, `rg`…), their rules and the AGENTS.md below the working folder Codex never reads itself;
 * - SubagentStart: the root context for the subagent; PostCompact, SessionStart after /clear: the rules come back.
 */
export const codexHost: HookHost = {
  name: "codex",
  agent: "codex",
  includeNative: (config) => config.codex.includeNative,
  action(event) {
    const name = event.hook_event_name;
    if (name === "SessionStart") return event.source === "clear" ? { reset: "injected" } : null;
    if (name === "PostCompact") return { reset: "injected" };
    if (name === "UserPromptSubmit" && typeof event.prompt === "string") return { select: { prompt: event.prompt } };
    if (name === "SubagentStart") return { select: {} };
    if (name !== "PreToolUse" && name !== "PostToolUse") return null;
    const patch = patchOf(event.tool_input);
    if (patch !== undefined) {
      const files = patchTargets(patch);
      return files.length > 0 ? { select: { files } } : null;
    }
    const command = event.tool_input?.command;
    if (name === "PostToolUse" && event.tool_name === "Bash" && typeof command === "string") return { mentions: command };
    return null;
  },
  answer: additionalContext,
};
