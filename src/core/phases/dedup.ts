import { ContextCollector, keyOf } from "../collector.js";
import { setStatus } from "../sources/source.js";
import type { Candidate, Entry } from "../types.js";

/**
 * One copy of every text: the collector keeps the first registration of a content; a text the agent already
 * has (loaded natively, or injected earlier in the session) leaves its copies out too. Returns the entries.
 */
export function dedupPhase(ordered: Candidate[], known: Candidate[], realPathOf: Map<string, string>): Entry[] {
  const collector = new ContextCollector();
  const session = "build";
  const byKey = new Map<string, Candidate>();
  for (const candidate of ordered) {
    if (candidate.status !== "included") continue;
    byKey.set(keyOf(candidate), candidate);
    collector.register(session, candidate);
  }
  const pending = collector.getPending(session);
  for (const { entry, keptAs } of pending.duplicates) {
    const kept = byKey.get(keptAs)!;
    const dup = byKey.get(keyOf(entry))!;
    const sameFile = dup.path !== null && kept.path !== null && realPathOf.get(dup.path) === realPathOf.get(kept.path);
    setStatus(dup, "duplicate", `${sameFile ? "same file as" : "same content as"} ${kept.path ?? kept.id}`);
  }
  const twins = new Map<string, Candidate>();
  for (const c of known) if (!twins.has(c.content.trim())) twins.set(c.content.trim(), c);
  const entries: Entry[] = [];
  for (const e of pending.entries) {
    const candidate = byKey.get(keyOf(e))!;
    const twin = twins.get(e.content.trim());
    if (twin) setStatus(candidate, "duplicate", `same content as ${twin.path ?? twin.id} (${twin.status === "already-injected" ? "already injected" : twin.reason})`);
    else entries.push(toEntry(candidate));
  }
  return entries;
}

function toEntry({ description: _description, status: _status, reason: _reason, ...entry }: Candidate): Entry {
  return entry;
}
