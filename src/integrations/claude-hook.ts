import { basename } from "node:path";
import type { Candidate, Warning } from "../core/types.js";
import { runSelection, type RunEnvironment } from "../io/run-selection.js";
import { SessionStore, stateDir } from "../io/session-store.js";

/** The fields of Claude Code's hook event that ctxinject reads; everything else is ignored. */
export interface ClaudeHookEvent {
  hook_event_name?: string;
  session_id?: string;
  cwd?: string;
  prompt?: string;
  tool_name?: string;
  tool_input?: { file_path?: string };
  source?: string;
}

const FILE_TOOLS = new Set(["Read", "Edit", "Write", "MultiEdit"]);

/** What Claude Code loads by itself: the CLAUDE.md chain and `.claude/rules` files without `paths`. */
export function loadedByClaude(candidate: Candidate): string | null {
  const path = candidate.path ?? "";
  if (candidate.source === "directory-agents" && /^CLAUDE(\.local)?\.md$/.test(basename(path))) return "Claude Code loads CLAUDE.md itself";
  if (candidate.source === "rules-injector" && /(^|\/)\.claude\/rules\//.test(path) && candidate.kind === "always") {
    return "Claude Code loads .claude/rules without paths itself";
  }
  return null;
}

/**
 * Answers one hook event: the JSON Claude Code expects on stdout, or "" when there is nothing new.
 * UserPromptSubmit builds for the prompt; PostToolUse on a file tool builds for that file; SessionStart after
 * compact or clear forgets what the session has seen; SessionEnd clears the session. Both builds use the
 * session, so nothing is injected twice until it changes.
 */
export async function answerClaudeEvent(run: RunEnvironment, event: ClaudeHookEvent): Promise<{ answer: string; warnings: Warning[] }> {
  const name = event.hook_event_name;
  const session = event.session_id;
  if (typeof session !== "string" || session === "") throw new Error("the event has no session_id");
  const cwd = typeof event.cwd === "string" && event.cwd !== "" ? event.cwd : run.cwd;
  const store = new SessionStore(stateDir(run.env));

  if (name === "SessionStart") {
    if (event.source === "compact" || event.source === "clear") await store.resetInjected(session);
    return { answer: "", warnings: [] };
  }
  if (name === "SessionEnd") {
    await store.clear(session);
    return { answer: "", warnings: [] };
  }

  let flags;
  if (name === "UserPromptSubmit" && typeof event.prompt === "string") flags = { prompt: event.prompt };
  else if (name === "PostToolUse" && FILE_TOOLS.has(event.tool_name ?? "") && typeof event.tool_input?.file_path === "string") {
    flags = { files: [event.tool_input.file_path] };
  } else return { answer: "", warnings: [] };

  const selected = await runSelection({ cwd, env: run.env }, { ...flags, session, format: "markdown" }, true, (config) => ({
    maxChars: config.claude.maxChars,
    ...(!config.claude.includeNative && { exclude: loadedByClaude }),
  }));
  const fresh = selected.doc.entries.length > 0;
  await selected.finish();
  if (!fresh) return { answer: "", warnings: selected.warnings };
  const additionalContext = selected.output.replace(/\n+$/, "");
  return { answer: `${JSON.stringify({ hookSpecificOutput: { hookEventName: name, additionalContext } })}\n`, warnings: selected.warnings };
}
