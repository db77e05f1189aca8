import { join } from "node:path";
import type { Warning } from "../core/types.js";
import { hostSettings, type CommandHook, type HookAnsweringHost, type HookEvent } from "../hosts/host.js";
import type { RunEnvironment } from "../io/pipeline.js";
import { findRoot } from "../io/config/root.js";
import { NOTHING_HELD, type Delivery } from "../io/session/session-claim.js";
import { SessionStore, stateDir } from "../io/session/session-store.js";
import { promptTargets } from "../io/targets.js";
import { compactionDigest } from "./compaction-digest.js";
import { injectOnce, type Injector } from "./inject-once.js";

export type { HookAction, HookEvent } from "../hosts/host.js";

/** One command-hook host as the answering side needs it: its events and answer, and what to inject once. */
export interface HookHost extends Injector, CommandHook {
  name: string;
}

/** A host of the registry as a HookHost: `hook <short>` answers for it. */
export const hookHostOf = (host: HookAnsweringHost): HookHost => ({
  name: host.short,
  agent: host.name,
  includeNative: (config) => hostSettings(host, config).includeNative,
  ...(host.maxCharsSetting && { maxChars: (config) => hostSettings(host, config).maxChars! }),
  ...(host.hook.event && { event: host.hook.event }),
  action: host.hook.action,
  answer: host.hook.answer,
});

/** The answer to write; `finish()` once it is written (what it gives stays given), `abort()` when it is not. */
export interface HookAnswer extends Delivery {
  answer: string;
  warnings: Warning[];
}

const nothing = (warnings: Warning[] = []): HookAnswer => ({ answer: "", warnings, ...NOTHING_HELD });

/**
 * What is injected is remembered per conversation and agent: a subagent that shares its parent's session id
 * must not use up the main agent's rules (and the other way round).
 */
export function sessionKey(event: HookEvent): string {
  const session = event.session_id;
  if (typeof session !== "string" || session === "") throw new Error("the event has no session_id");
  return typeof event.agent_id === "string" && event.agent_id !== "" ? `${session}~agent~${event.agent_id}` : session;
}

/**
 * Answers one hook event: the JSON the host expects on stdout, or "" when there is nothing new. The caller writes
 * it, then finishes (or aborts) the answer: the session records it as given only once it is out.
 */
export async function answerHookEvent(host: HookHost, run: RunEnvironment, raw: HookEvent): Promise<HookAnswer> {
  const event = host.event ? host.event(raw as Record<string, unknown>) : raw;
  const session = sessionKey(event);
  const cwd = typeof event.cwd === "string" && event.cwd !== "" ? event.cwd : run.cwd;
  const action = host.action(event);
  if (action === null) return nothing();
  if ("reset" in action) {
    const store = new SessionStore(stateDir(run.env));
    await (action.reset === "session" ? store.clear(session) : store.resetInjected(session));
    return nothing();
  }
  if ("digest" in action) {
    const digest = await compactionDigest(host, { ...run, cwd }, session);
    return { ...nothing(), answer: digest === "" ? "" : `${JSON.stringify(host.answer(event.hook_event_name ?? "", digest))}\n` };
  }
  const request = "select" in action ? action.select : mentionedFiles(cwd, action.mentions);
  if (request === null) return nothing();
  const injected = await injectOnce(host, { ...run, cwd }, session, request);
  const { context, warnings, finish, abort } = injected;
  return { answer: context === "" ? "" : `${JSON.stringify(host.answer(event.hook_event_name ?? "", context))}\n`, warnings, finish, abort };
}

/** The files a shell command names that exist, as targets; null when it names none. */
function mentionedFiles(cwd: string, command: string): { files: string[] } | null {
  const { root } = findRoot(cwd, undefined);
  const files = promptTargets(cwd, root, command);
  return files.length > 0 ? { files: files.map((f) => join(root, f)) } : null;
}
