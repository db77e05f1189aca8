import { join } from "node:path";
import type { Warning } from "../core/types.js";
import type { RunEnvironment, SelectionRequest } from "../io/pipeline.js";
import { findRoot } from "../io/root.js";
import { SessionStore, stateDir } from "../io/session-store.js";
import { promptTargets } from "../io/targets.js";
import { compactionDigest } from "./compaction-digest.js";
import { injectOnce, type Injector } from "./inject-once.js";

/**
 * The fields of a command-hook event that ctxinject reads (Claude Code's wire format, which Codex shares and
 * Gemini CLI follows closely); everything else is ignored.
 */
export interface HookEvent {
  hook_event_name?: string;
  session_id?: string;
  cwd?: string;
  prompt?: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  source?: string;
  reason?: string;
  agent_id?: string;
  agent_type?: string;
}

/** What one event asks of ctxinject. */
export type HookAction =
  | { select: Omit<SelectionRequest, "session" | "format"> }
  /** The files a shell command names, when any exists; nothing otherwise. */
  | { mentions: string }
  /** Forget what was injected (/clear): the rules come back. */
  | { reset: "injected" }
  /** A compaction: forget what was injected, and give a digest of what was in force (compaction-digest.ts). */
  | { digest: true }
  /** Forget the session altogether. */
  | { reset: "session" }
  | null;

/** One host's command hooks: which events mean what, what it loads itself, how it wants the answer. */
export interface HookHost extends Injector {
  name: string;
  action(event: HookEvent): HookAction;
  /** The JSON the host expects on stdout for context on this event. */
  answer(eventName: string, context: string): unknown;
}

export interface HookAnswer {
  answer: string;
  warnings: Warning[];
}

/**
 * What is injected is remembered per conversation and agent: a subagent that shares its parent's session id
 * must not use up the main agent's rules (and the other way round).
 */
export function sessionKey(event: HookEvent): string {
  const session = event.session_id;
  if (typeof session !== "string" || session === "") throw new Error("the event has no session_id");
  return typeof event.agent_id === "string" && event.agent_id !== "" ? `${session}~agent~${event.agent_id}` : session;
}

/** Answers one hook event: the JSON the host expects on stdout, or "" when there is nothing new. */
export async function answerHookEvent(host: HookHost, run: RunEnvironment, event: HookEvent): Promise<HookAnswer> {
  const session = sessionKey(event);
  const cwd = typeof event.cwd === "string" && event.cwd !== "" ? event.cwd : run.cwd;
  const action = host.action(event);
  if (action === null) return { answer: "", warnings: [] };
  if ("reset" in action) {
    const store = new SessionStore(stateDir(run.env));
    await (action.reset === "session" ? store.clear(session) : store.resetInjected(session));
    return { answer: "", warnings: [] };
  }
  if ("digest" in action) {
    const digest = await compactionDigest(host, { ...run, cwd }, session);
    return { answer: digest === "" ? "" : `${JSON.stringify(host.answer(event.hook_event_name ?? "", digest))}\n`, warnings: [] };
  }
  const request = "select" in action ? action.select : mentionedFiles(cwd, action.mentions);
  if (request === null) return { answer: "", warnings: [] };
  const { context, warnings } = await injectOnce(host, { ...run, cwd }, session, request);
  if (context === "") return { answer: "", warnings };
  return { answer: `${JSON.stringify(host.answer(event.hook_event_name ?? "", context))}\n`, warnings };
}

/** The files a shell command names that exist, as targets; null when it names none. */
function mentionedFiles(cwd: string, command: string): { files: string[] } | null {
  const { root } = findRoot(cwd, undefined);
  const files = promptTargets(cwd, root, command);
  return files.length > 0 ? { files: files.map((f) => join(root, f)) } : null;
}

/** The path a file tool's input names (`file_path`, `notebook_path`, `path`, `absolute_path`), if any. */
export function filePathOf(input: Record<string, unknown> | undefined): string | undefined {
  for (const key of ["file_path", "notebook_path", "path", "absolute_path", "filePath"]) {
    const value = input?.[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

/** Claude Code's answer shape, shared by Codex: `hookSpecificOutput.additionalContext`. */
export const additionalContext = (hookEventName: string, context: string) => ({ hookSpecificOutput: { hookEventName, additionalContext: context } });
