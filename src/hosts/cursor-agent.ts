import { cursorAgent } from "../core/agents/cursor-agent.js";
import type { CommandHookHost, HookEvent } from "./host.js";

/**
 * Cursor's CLI (`cursor-agent`, `ctxinject hook cursor`), from Cursor's hooks documentation (hooks.json v1); not
 * proven against the real CLI, which is not on npm and cannot run here. Its hooks file is the editor's too.
 * - sessionStart: the root context (the always-on rules); its `additional_context` is kept for the conversation;
 * - beforeSubmitPrompt: what `build` gives for the prompt and its attached files, as `additional_context` (accepted
 *   by recent clients, not documented: an older client ignores it and the session start's context remains).
 * Its tool events (preToolUse, postToolUse, afterFileEdit) carry no context the documentation names, and a subagent
 * (subagentStart) can only be allowed or denied: a read of a nested file brings no rules on Cursor.
 * Its events name the conversation `conversation_id` and the project `workspace_roots`; `event` maps them onto
 * the fields the answering side reads.
 */
export const cursorAgentHost: CommandHookHost = {
  name: "cursor-agent",
  // `cursor` is the editor's profile for `--as`; `hook cursor` and `init --cursor` are this host (the hooks file
  // is shared by the editor and the CLI), `--as cursor-agent` its profile.
  short: "cursor",
  label: "Cursor's CLI",
  profile: cursorAgent,
  hook: {
    event(raw) {
      const event = raw as HookEvent & { conversation_id?: unknown; workspace_roots?: unknown; attachments?: unknown };
      const session = typeof event.session_id === "string" && event.session_id !== "" ? event.session_id : event.conversation_id;
      const roots = Array.isArray(event.workspace_roots) ? event.workspace_roots.filter((r): r is string => typeof r === "string") : [];
      return {
        ...event,
        ...(typeof session === "string" && { session_id: session }),
        ...(typeof event.cwd !== "string" && roots[0] !== undefined && { cwd: roots[0] }),
      };
    },
    action(event) {
      const name = event.hook_event_name;
      if (name === "sessionStart") return { select: {} };
      if (name === "beforeSubmitPrompt" && typeof event.prompt === "string") {
        const files = attachedFiles((event as { attachments?: unknown }).attachments);
        return { select: { prompt: event.prompt, ...(files.length > 0 && { files }) } };
      }
      return null;
    },
    answer: (eventName, context) => (eventName === "beforeSubmitPrompt" ? { continue: true, additional_context: context } : { additional_context: context }),
  },
  install: {
    settings: {
      project: ".cursor/hooks.json",
      user: ".cursor/hooks.json",
      events: [{ event: "sessionStart" }, { event: "beforeSubmitPrompt" }],
      timeout: 10,
      // Cursor runs a project's hooks in the project folder.
      projectDir: "cwd",
      flat: { version: 1 },
    },
  },
  markers: [".cursor/hooks.json"],
  // Its events name no folder of their own: the player's `cwd` stands beside workspace_roots.
  samples: [
    { label: "beforeSubmitPrompt", event: ({ prompt, root }) => ({ hook_event_name: "beforeSubmitPrompt", prompt, attachments: [], workspace_roots: [root] }) },
  ],
};

/** The files attached to a prompt (`attachments: [{type: "file", file_path}]`); rules attached are Cursor's own. */
function attachedFiles(attachments: unknown): string[] {
  if (!Array.isArray(attachments)) return [];
  const files: string[] = [];
  for (const a of attachments as Array<Record<string, unknown> | null>) {
    const path = a?.file_path ?? a?.filePath;
    if (a?.type === "file" && typeof path === "string" && path !== "") files.push(path);
  }
  return files;
}
