import { profileForAs } from "./agent-settings.js";
import { agentSelection } from "../core/agents/view.js";
import { compose, type Composed } from "../core/compose.js";
import { workingFolderOf } from "./paths.js";
import type { Config } from "../core/config.js";
import type { SettingOrigin } from "../core/config-layers.js";
import type { CountTokens } from "../core/tokens.js";
import type { Format, Warning } from "../core/types.js";
import { gather, type GatherOptions } from "./gather.js";
import { contentHash, SessionStore, stateDir, type Claim } from "./session-store.js";

/** The selection a build or explain asks for, already mapped from flags (only what the user set). */
export type SelectionRequest = Omit<GatherOptions, "cwd" | "env" | "session" | "excludeFor"> & {
  session?: string;
  fresh?: boolean;
  /** `build --as AGENT`: the entries that agent's own loader gives it, instead of ctxinject's selection. */
  as?: string;
};

export interface RunEnvironment {
  cwd: string;
  env: Record<string, string | undefined>;
  /** The clock, for session expiry (default Date.now). */
  now?: () => number;
  /** When the process started (ms since the epoch): a hook's work stops at config hookDeadlineMs from it. */
  startedAt?: number;
}

export interface ComposeLimits {
  /** A cap in characters on top of any token budget (Claude Code's additionalContext limit). */
  maxChars?: number;
  /** The agent (profile name) whose own loading is left out, as its settings have it. */
  native?: string;
  /**
   * With a session: the index of omitted rules is shown again only when it changed, and a warning only once (hooks
   * run on every prompt and tool call).
   */
  once?: boolean;
}

/** The session record that remembers the last index shown. */
export const INDEX_KEY = "ctxinject:index";

export interface Selected extends Composed {
  prompt: string | undefined;
  /** Where each setting not left at its default came from (explain). */
  settings: Record<string, SettingOrigin>;
  format: Format;
  warnings: Warning[];
  /** Call once the output is written: consumes the session's claimed entries and records what was injected. */
  finish(): Promise<void>;
  /** Call when the output could not be written: claimed entries go back to pending. */
  abort(): Promise<void>;
}

/**
 * What build, explain and the agent hooks share: session, gather, budget.
 * `take` claims the session's pending entries (build); otherwise they are only looked at (explain).
 */
export async function runSelection(
  run: RunEnvironment,
  flags: SelectionRequest,
  take: boolean,
  /** Limits that depend on the project's config (a hook's character cap, what its agent loads itself). */
  limitsFor: (config: Config) => ComposeLimits = () => ({}),
): Promise<Selected> {
  const prompt = flags.prompt;
  const sessionId = flags.session;
  const store = sessionId !== undefined ? new SessionStore(stateDir(run.env)) : null;
  let claim: Claim | null = null;
  let session;
  if (store && sessionId !== undefined) {
    claim = take ? await store.claim(sessionId) : null;
    const entries = claim ? claim.entries : await store.pending(sessionId);
    session = { id: sessionId, entries, ...(!flags.fresh && { injected: await store.injected(sessionId) }) };
  }
  try {
    const { session: _session, fresh: _fresh, as: asAgent, ...request } = flags;
    const gathered = await gather({
      ...request,
      cwd: run.cwd,
      env: run.env,
      ...(run.startedAt !== undefined && { startedAt: run.startedAt }),
      ...(session && { session }),
      excludeFor: (config) => limitsFor(config).native,
    });
    const limits = limitsFor(gathered.config);
    const { format, maxTokens, tokenizer, provenance, all } = gathered.options;
    const seen = limits.once === true ? session?.injected : undefined;
    const omitted = gathered.selection.omitted;
    const index = seen && omitted.length > 0 ? { key: INDEX_KEY, hash: contentHash(omitted.map((o) => `${o.source}:${o.id}:${o.tokens}`).join("\n")) } : null;
    const indexShown = index !== null && seen?.get(index.key) === index.hash;
    const profile = profileForAs(asAgent, gathered.root, run.env, (warnings) => gathered.warnings.push(...warnings));
    const selection = profile
      ? agentSelection(profile, gathered.selection, workingFolderOf(gathered.root, run.cwd))
      : indexShown
        ? { ...gathered.selection, omitted: [] }
        : gathered.selection;
    const warnings = seen ? gathered.warnings.map((w) => ({ w, key: warningKey(w) })).filter(({ key }) => !seen.has(key)) : null;
    const composed = compose(selection, {
      format,
      root: gathered.root,
      tokenizer,
      provenance,
      all,
      ...budget(gathered.countTokens, maxTokens, limits.maxChars),
    });
    const finish = async () => {
      if (!store || sessionId === undefined) return;
      await claim?.commit();
      const shown = [...(index && !indexShown ? [index] : []), ...(warnings ?? []).map(({ key }) => ({ key, hash: "shown" }))];
      if (take) await store.recordInjected(sessionId, [...gathered.injectionRecords(composed.candidates), ...shown]);
      await store.collectGarbageOccasionally(gathered.config.sessions.maxAgeHours * 3_600_000, GC_INTERVAL_MS, (run.now ?? Date.now)(), sessionId);
    };
    return { ...composed, prompt, format, settings: gathered.settings, warnings: warnings ? warnings.map(({ w }) => w) : gathered.warnings, finish, abort: async () => void (await claim?.release()) };
  } catch (error) {
    await claim?.release();
    throw error;
  }
}

const warningKey = (w: Warning) => `ctxinject:warning:${contentHash(`${w.file ?? ""}:${w.line ?? ""}:${w.message}`)}`;

/** Expired sessions are looked for at most this often (sessions.maxAgeHours is a week by default). */
const GC_INTERVAL_MS = 3_600_000;

const SCALE = 1_000_000;

/**
 * The budget to compose with: tokens, characters, or both at once — as a fraction of each limit, so one
 * fitting pass honours whichever is tighter for every piece of text.
 */
function budget(countTokens: CountTokens, maxTokens: number | null, maxChars: number | undefined): { countTokens: CountTokens; maxTokens: number | null } {
  if (maxChars === undefined) return { countTokens, maxTokens };
  if (maxTokens === null) return { countTokens: (text) => text.length, maxTokens: maxChars };
  return {
    countTokens: (text) => Math.ceil(Math.max(countTokens(text) / maxTokens, text.length / maxChars) * SCALE),
    maxTokens: SCALE,
  };
}
