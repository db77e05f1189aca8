/**
 * Whether a hook's deadline (config hookDeadlineMs, counted from `startedAt`) has passed: asked between pieces of
 * work (each file read, each file redacted, dedup's comparisons), which then stop and leave the answer to what was
 * found so far. Without a start (a build, not a hook), never.
 */
export function deadlinePassed(startedAt: number | undefined, deadlineMs: number, now: () => number = Date.now): () => boolean {
  if (startedAt === undefined) return () => false;
  const at = startedAt + deadlineMs;
  let passed = false;
  return () => (passed ||= now() > at);
}

/** What a run says where the deadline cut its work short: the answer holds what was found before it. */
export const deadlineNote = (deadlineMs: number): string => `stopped at the ${deadlineMs} ms deadline (config hookDeadlineMs)`;
