import { usageError } from "../../core/errors.js";
import { SessionStore, stateDir } from "../../io/session/session-store.js";
import type { CliContext } from "../context.js";

/** Forgets one session (pending entries and injection history), or every session with --all. */
export async function runClear(ctx: CliContext, flags: { session?: string; all?: boolean }): Promise<number> {
  if ((flags.session === undefined) === (flags.all !== true)) throw usageError("clear: give either --session ID or --all");
  const store = new SessionStore(stateDir(ctx.env));
  if (flags.all) await store.clearAll();
  else await store.clear(flags.session!);
  return 0;
}
