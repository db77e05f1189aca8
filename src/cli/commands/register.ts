import { CtxinjectError } from "../../core/errors.js";
import { safeMessage } from "../../core/redact.js";
import type { Priority } from "../../core/types.js";
import { SessionStore, stateDir } from "../../io/session/session-store.js";
import type { CliContext } from "../context.js";

export interface RegisterFlags {
  session: string;
  source: string;
  id: string;
  priority?: Priority;
  content?: string;
}

/** Adds an entry to a session for the next `build --session` (or `consume`); the same source and id replace it. */
export async function runRegister(ctx: CliContext, flags: RegisterFlags): Promise<number> {
  const content = flags.content ?? (await ctx.readStdin());
  if (content === undefined || content.trim() === "") {
    throw new CtxinjectError("register: no content; pass --content TEXT or pipe it on standard input");
  }
  const store = new SessionStore(stateDir(ctx.env));
  await store.register(flags.session, { source: flags.source, id: flags.id, content, ...(flags.priority && { priority: flags.priority }) });
  ctx.stderr.write(`ctxinject: registered ${safeMessage(`${flags.source}:${flags.id} in session ${flags.session}`)}\n`);
  return 0;
}
