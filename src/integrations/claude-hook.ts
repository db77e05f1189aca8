import { claudeCode } from "../core/agents/claude-code.js";
import type { Warning } from "../core/types.js";
import { runSelection, type RunEnvironment, type SelectionRequest } from "../io/run-selection.js";
import { SessionStore, stateDir } from "../io/session-store.js";

/** The fields of Claude Code's hook event that ctxinject reads; everything else is ignored. */
export interface ClaudeHookEvent {
  hook_event_name?: string;
  session_id?: string;
  cwd?: string;
  prompt?: string;
  tool_name?: string;
  tool_input?: { file_path?: string; notebook_path?: string };
  source?: string;
  reason?: string;
  agent_id?: string;
  agent_type?: string;
}

/** Tools that write a file: its rules are wanted before the write (PreToolUse), and after it where that is too late. */
const WRITE_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);
const READ_TOOLS = new Set(["Read"]);

/** What Claude Code loads by itself (the Claude Code profile), unless the config says to inject it anyway. */
export const loadedByClaude = claudeCode.loadsItself;

/**
 * What is injected is remembered per conversation and agent: a subagent shares its parent's session id, and what
 * it read must still reach the main agent (and the other way round).
 */
export function sessionKey(event: ClaudeHookEvent): string {
  const session = event.session_id;
  if (typeof session !== "string" || session === "") throw new Error("the event has no session_id");
  return typeof event.agent_id === "string" && event.agent_id !== "" ? `${session}~agent~${event.agent_id}` : session;
}

export interface ClaudeAnswer {
  answer: string;
  warnings: Warning[];
}

/**
 * Answers one hook event: the JSON Claude Code expects on stdout, or "" when there is nothing new.
 * - UserPromptSubmit: what `build` gives for the prompt (paths and `@path` mentions in it are targets);
 * - PreToolUse on a writing tool: that file's rules before the write; PostToolUse on Read (and writes): its rules;
 * - SubagentStart: the root context, for the subagent's own bookkeeping;
 * - SessionStart after compact or clear: the session forgets what it has seen; SessionEnd clears only for /clear
 *   (a `claude -p` run ends with reason "other" and may be resumed: what it injected stays injected).
 * The index of omitted rules and warnings already shown in the session are not repeated.
 */
export async function answerClaudeEvent(run: RunEnvironment, event: ClaudeHookEvent): Promise<ClaudeAnswer> {
  const name = event.hook_event_name;
  const session = sessionKey(event);
  const cwd = typeof event.cwd === "string" && event.cwd !== "" ? event.cwd : run.cwd;
  const store = new SessionStore(stateDir(run.env));

  if (name === "SessionStart") {
    if (event.source === "compact" || event.source === "clear") await store.resetInjected(session);
    return { answer: "", warnings: [] };
  }
  if (name === "SessionEnd") {
    if (event.reason === "clear") await store.clear(session);
    return { answer: "", warnings: [] };
  }

  const file = event.tool_input?.file_path ?? event.tool_input?.notebook_path;
  const tool = event.tool_name ?? "";
  let flags: SelectionRequest;
  if (name === "UserPromptSubmit" && typeof event.prompt === "string") flags = { prompt: event.prompt };
  else if (name === "PreToolUse" && WRITE_TOOLS.has(tool) && typeof file === "string") flags = { files: [file] };
  else if (name === "PostToolUse" && (READ_TOOLS.has(tool) || WRITE_TOOLS.has(tool)) && typeof file === "string") flags = { files: [file] };
  else if (name === "SubagentStart") flags = {};
  else return { answer: "", warnings: [] };

  const selected = await runSelection({ cwd, env: run.env }, { ...flags, session, format: "markdown" }, true, (config) => ({
    maxChars: config.claude.maxChars,
    once: true,
    ...(!config.claude.includeNative && { exclude: loadedByClaude }),
  }));
  const fresh = selected.doc.entries.length > 0;
  await selected.finish();
  const warnings = selected.warnings;
  if (!fresh) return { answer: "", warnings };
  const additionalContext = selected.output.replace(/\n+$/, "");
  return { answer: `${JSON.stringify({ hookSpecificOutput: { hookEventName: name, additionalContext } })}\n`, warnings };
}

