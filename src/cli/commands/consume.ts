import type { Format } from "../../core/types.js";
import { SessionStore, stateDir } from "../../io/session/session-store.js";
import { writeOut, type CliContext } from "../context.js";
import { renderSessionEntries } from "./session-output.js";

/** Prints a session's pending entries and removes them: each entry is printed by exactly one consumer. */
export async function runConsume(ctx: CliContext, flags: { session: string; format?: Format }): Promise<number> {
  const store = new SessionStore(stateDir(ctx.env));
  const claim = await store.claim(flags.session);
  try {
    await writeOut(ctx, renderSessionEntries(ctx, flags.session, claim.entries, flags.format ?? "markdown"));
  } catch (error) {
    await claim.release();
    throw error;
  }
  await claim.commit();
  return 0;
}
