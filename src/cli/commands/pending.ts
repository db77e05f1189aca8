import type { Format } from "../../core/types.js";
import { SessionStore, stateDir } from "../../io/session/session-store.js";
import { writeOut, type CliContext } from "../context.js";
import { renderSessionEntries } from "./session-output.js";

/** Prints a session's pending entries without consuming them. */
export async function runPending(ctx: CliContext, flags: { session: string; format?: Format }): Promise<number> {
  const store = new SessionStore(stateDir(ctx.env));
  await writeOut(ctx, renderSessionEntries(ctx, flags.session, await store.pending(flags.session), flags.format ?? "markdown"));
  return 0;
}
