/** A hook's work stopped because its deadline passed (config hookDeadlineMs): it answers with nothing. */
export class DeadlineExceeded extends Error {
  constructor(readonly deadlineMs: number) {
    super(`stopped at the ${deadlineMs} ms deadline (config hookDeadlineMs); no context was added`);
  }
}

/**
 * A check to call between pieces of work: throws DeadlineExceeded once `startedAt + deadlineMs` has passed. Without
 * a start (a build, not a hook), it never throws.
 */
export function deadlineCheck(startedAt: number | undefined, deadlineMs: number, now: () => number = Date.now): () => void {
  if (startedAt === undefined) return () => {};
  const at = startedAt + deadlineMs;
  return () => {
    if (now() > at) throw new DeadlineExceeded(deadlineMs);
  };
}
