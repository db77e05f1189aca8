import { codex, codexProfile } from "../core/agents/codex.js";
import type { AgentSettings } from "../core/agents/profile.js";
import { additionalContext, strings, type CommandHookHost } from "./host.js";
import { patchOf, patchTargets } from "./tool-targets.js";

/**
 * Codex (`ctxinject hook codex`), whose command hooks share Claude Code's wire format:
 * - UserPromptSubmit: what `build` gives for the prompt;
 * - PreToolUse on apply_patch: the patched files' rules before the patch; PostToolUse on apply_patch too (a
 *   patch is Codex's only edit), and on Bash: the files the command names that exist (Codex reads files with
 *   `cat`, `sed -n`, `rg`…), their rules and the AGENTS.md below the working folder Codex never reads itself;
 * - SubagentStart: the root context for the subagent; PostCompact, SessionStart after /clear: the rules come back.
 */
export const codexHost: CommandHookHost = {
  name: "codex",
  short: "codex",
  label: "Codex",
  profile: codex,
  configure: codexProfile,
  /** `project_doc_fallback_filenames` and `project_doc_max_bytes`, from the user's config.toml and a trusted project's. */
  readSettings(files) {
    const settings: AgentSettings = {};
    const userFile = files.under(files.env.CODEX_HOME || files.under(files.home, ".codex"), "config.toml");
    const projectFile = files.under(files.root, ".codex/config.toml");
    // Most config.toml files set none of this: they are not parsed at all.
    const user = files.toml(userFile, (text) => text.includes("project_doc_") || text.includes("trust_level"));
    // A project's .codex/config.toml counts only in a project the user trusts (Codex ignores it elsewhere).
    const projects = user?.projects as Record<string, { trust_level?: unknown }> | undefined;
    const trusted = projects?.[files.root]?.trust_level === "trusted";
    for (const [file, value] of [
      [userFile, user],
      [projectFile, trusted ? files.toml(projectFile, (text) => text.includes("project_doc_")) : undefined],
    ] as const) {
      const names = strings(value?.project_doc_fallback_filenames);
      const bytes = value?.project_doc_max_bytes;
      if (names) settings.fallbackFileNames = names;
      if (typeof bytes === "number" && Number.isFinite(bytes) && bytes >= 0) settings.maxBytes = bytes;
      if (names || typeof bytes === "number") settings.from = files.shown(file);
    }
    return settings;
  },
  hook: {
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
  },
  install: {
    /**
     * Codex reads hooks.json beside each config layer; `Edit|Write` are its aliases for apply_patch. It runs a hook
     * in the session's folder, which may be below the project whose .codex/hooks.json it found, and sets no variable.
     */
    settings: {
      project: ".codex/hooks.json",
      user: ".codex/hooks.json",
      events: [
        { event: "UserPromptSubmit" },
        { event: "PreToolUse", matcher: "apply_patch|Edit|Write" },
        { event: "PostToolUse", matcher: "Bash|apply_patch|Edit|Write" },
        { event: "SubagentStart" },
        { event: "SessionStart" },
        { event: "PostCompact" },
      ],
      timeout: 10,
      projectDir: "none",
    },
    // Codex runs a new or changed hook only once the user has trusted it; an untrusted hook is skipped without a word.
    note: 'Codex runs new hooks only once trusted: start `codex` and accept "Hooks need review" (or /hooks); `codex exec` in automation needs --dangerously-bypass-hook-trust',
  },
  markers: [".codex/", "AGENTS.md"],
  samples: [
    { label: "UserPromptSubmit", event: ({ prompt }) => ({ hook_event_name: "UserPromptSubmit", prompt }) },
    // Codex reads files with shell commands: the file a command names, relative to the session's folder.
    { label: "PostToolUse (Bash cat)", event: ({ file }) => ({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: `cat ${file}` } }) },
  ],
};
