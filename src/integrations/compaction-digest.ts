import { renderDigest, type DigestItem } from "../core/render/digest.js";
import { toRootRelative } from "../io/fs/paths.js";
import { runPipeline, type RunEnvironment } from "../io/pipeline.js";
import { SessionStore, stateDir } from "../io/session/session-store.js";
import type { Injector } from "./inject-once.js";

/** The cap a digest shares when the host has none of its own. */
const DEFAULT_CAP = 10_000;

/**
 * After a host compacted a conversation: the session forgets what it injected (each full text comes back when its
 * file is touched again), and the agent gets a digest of what was in force — the list, critical texts in full —
 * within config compaction.budgetFraction of the host's cap. "" when the session had injected nothing.
 */
export async function compactionDigest(injector: Injector, run: RunEnvironment, session: string): Promise<string> {
  const store = new SessionStore(stateDir(run.env));
  const injected = await store.injectedKeys(session);
  await store.resetInjected(session);
  const keys = injected.filter((key) => !key.startsWith("ctxinject:"));
  if (keys.length === 0) return "";
  const gathered = await runPipeline(run, { purpose: "hook", all: true, until: "select" });
  const byKey = new Map(gathered.selection.candidates.map((c) => [gathered.keyOf(c), c]));
  const items: DigestItem[] = keys.map((key) => {
    const c = byKey.get(key);
    if (c) return { name: c.path ?? `${c.source}:${c.id}`, priority: c.priority, content: c.content };
    return { name: toRootRelative(gathered.root, key) ?? key, priority: null };
  });
  const cap = injector.maxChars?.(gathered.config) ?? DEFAULT_CAP;
  return renderDigest(items, Math.floor(cap * gathered.config.compaction.budgetFraction));
}
