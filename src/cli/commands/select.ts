import { compose, type Composed } from "../../core/compose.js";
import type { Format } from "../../core/types.js";
import { gather } from "../../io/gather.js";
import { SessionStore, stateDir, type Claim } from "../../io/session-store.js";
import { printWarnings, type CliContext } from "../context.js";
import { selectionOptions, type SelectionFlags } from "../options.js";

export interface SessionFlags {
  session?: string;
  fresh?: boolean;
}

export interface Selected extends Composed {
  prompt: string | undefined;
  format: Format;
  /** Call once the output is written: consumes the session's claimed entries and records what was injected. */
  finish(): Promise<void>;
  /** Call when the output could not be written: claimed entries go back to pending. */
  abort(): Promise<void>;
}

/**
 * What build and explain share: prompt, session, gather, budget. Warnings go to stderr here, once.
 * `take` claims the session's pending entries (build); otherwise they are only looked at (explain).
 */
export async function selectAndCompose(
  ctx: CliContext,
  flags: SelectionFlags & SessionFlags & { format?: Format; provenance?: boolean },
  take: boolean,
): Promise<Selected> {
  // An empty pipe (a CI step with nothing piped in) is no prompt at all.
  const prompt = flags.prompt ?? ((await ctx.readStdin()) || undefined);
  const sessionId = flags.session;
  const store = sessionId !== undefined ? new SessionStore(stateDir(ctx.env)) : null;
  let claim: Claim | null = null;
  let session;
  if (store && sessionId !== undefined) {
    claim = take ? await store.claim(sessionId) : null;
    const entries = claim ? claim.entries : await store.pending(sessionId);
    session = { id: sessionId, entries, ...(!flags.fresh && { injected: await store.injected(sessionId) }) };
  }
  try {
    const gathered = await gather({
      cwd: ctx.cwd,
      ...selectionOptions(flags),
      ...(prompt !== undefined && { prompt }),
      ...(session && { session }),
    });
    printWarnings(ctx, gathered.warnings);
    const format = flags.format ?? gathered.config.format ?? "markdown";
    const composed = compose(gathered.selection, {
      format,
      root: gathered.root,
      tokenizer: gathered.tokenizer,
      maxTokens: flags.maxTokens ?? gathered.config.maxTokens ?? null,
      countTokens: gathered.countTokens,
      provenance: flags.provenance !== false,
      all: flags.all === true,
    });
    const finish = async () => {
      if (!store || sessionId === undefined) return;
      await claim?.commit();
      if (take) await store.recordInjected(sessionId, gathered.injectionRecords(composed.candidates));
      await store.collectGarbage(gathered.config.sessions.maxAgeHours * 3_600_000, Date.now(), sessionId);
    };
    return { ...composed, prompt, format, finish, abort: async () => void (await claim?.release()) };
  } catch (error) {
    await claim?.release();
    throw error;
  }
}
