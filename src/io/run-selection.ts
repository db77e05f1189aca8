import { profileForAs } from "./agent-settings.js";
import { agentSelection } from "../core/agents/view.js";
import { compose, type Composed } from "../core/compose.js";
import { workingFolderOf } from "./paths.js";
import type { Config } from "../core/config.js";
import type { SettingOrigin } from "../core/config-layers.js";
import type { CountTokens } from "../core/tokens.js";
import type { Candidate, Format, Warning } from "../core/types.js";
import { gather, type GatherOptions } from "./gather.js";
import type { Selection } from "../core/select.js";
import { contentHash, SessionStore, stateDir, type Claim, type InjectedRecord } from "./session-store.js";

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
  let releaseGiven = () => undefined as void;
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
    const indexShown = index !== null && seen?.has(index.key, index.hash) === true;
    const profile = profileForAs(asAgent, gathered.root, run.env, (warnings) => gathered.warnings.push(...warnings));
    const selection = profile
      ? agentSelection(profile, gathered.selection, workingFolderOf(gathered.root, run.cwd))
      : indexShown
        ? { ...gathered.selection, omitted: [] }
        : gathered.selection;
    let warnings = seen ? gathered.warnings.map((w) => ({ w, key: warningKey(w) })).filter(({ key }) => !seen.has(key, SHOWN)) : null;
    const composeOf = (chosen: Selection) =>
      compose(chosen, { format, root: gathered.root, tokenizer, provenance, all, ...budget(gathered.countTokens, maxTokens, limits.maxChars) });
    let composed = composeOf(selection);
    if (take && store && sessionId !== undefined) {
      // The texts go to this call only if it claims them: of hooks running at once on the session, one gives each.
      const claimed = claimGiven(store, sessionId, flags.fresh === true, session?.injected, gathered.injectionRecords, selection, composeOf, composed, index !== null && !indexShown ? index : null, warnings);
      releaseGiven = claimed.release;
      composed = claimed.composed;
      warnings = claimed.warnings;
    }
    const finish = async () => {
      if (!store || sessionId === undefined) return;
      await claim?.commit();
      await store.collectGarbageOccasionally(gathered.config.sessions.maxAgeHours * 3_600_000, GC_INTERVAL_MS, (run.now ?? Date.now)(), sessionId);
    };
    const abort = async () => {
      releaseGiven();
      await claim?.release();
    };
    return { ...composed, prompt, format, settings: gathered.settings, warnings: warnings ? warnings.map(({ w }) => w) : gathered.warnings, finish, abort };
  } catch (error) {
    releaseGiven();
    await claim?.release();
    throw error;
  }
}

const SHOWN = "shown";

type Shown = Array<{ w: Warning; key: string }> | null;

/**
 * Claims what the composed output gives (texts, the index, warnings). A text another call of the session claimed
 * first is marked as given and left out, and the output is composed again (which may let in a text the budget
 * had left out: it is claimed in turn), until every text in the output is this call's.
 */
function claimGiven(
  store: SessionStore,
  session: string,
  /** `--fresh`: given again whatever the session had; what another call holds is no reason to leave a text out. */
  fresh: boolean,
  seen: Awaited<ReturnType<SessionStore["injected"]>> | undefined,
  recordsOf: (candidates: Candidate[]) => InjectedRecord[],
  first: Selection,
  composeOf: (selection: Selection) => ReturnType<typeof compose>,
  composedFirst: ReturnType<typeof compose>,
  index: InjectedRecord | null,
  shownFirst: Shown,
): { composed: ReturnType<typeof compose>; warnings: Shown; release(): void } {
  const releases: Array<() => void> = [];
  const release = () => releases.splice(0).forEach((r) => r());
  const claim = (records: InjectedRecord[]) => {
    const taken = store.claimInjected(session, records, seen);
    releases.push(taken.release);
    return new Set((fresh ? [] : taken.lost).map((r) => `${r.key}\0${r.hash}`));
  };
  const lostShown = claim([...(index ? [index] : []), ...(shownFirst ?? []).map(({ key }) => ({ key, hash: SHOWN }))]);
  const warnings = shownFirst && shownFirst.filter(({ key }) => !lostShown.has(`${key}\0${SHOWN}`));
  let selection = index && lostShown.has(`${index.key}\0${index.hash}`) ? { ...first, omitted: [] } : first;
  let composed = selection === first ? composedFirst : composeOf(selection);
  // source:id of the texts this call has tried to claim.
  const tried = new Set<string>();
  for (;;) {
    const pairs: Array<{ id: string; record: InjectedRecord }> = [];
    for (const c of composed.candidates) {
      const id = `${c.source}:${c.id}`;
      const [record] = tried.has(id) ? [] : recordsOf([c]);
      if (record === undefined) continue;
      tried.add(id);
      pairs.push({ id, record });
    }
    const lost = claim(pairs.map((p) => p.record));
    const taken = new Set(pairs.filter((p) => lost.has(`${p.record.key}\0${p.record.hash}`)).map((p) => p.id));
    if (taken.size === 0) return { composed, warnings, release };
    selection = withoutTaken(selection, taken);
    composed = composeOf(selection);
  }
}

function withoutTaken(selection: Selection, taken: Set<string>): Selection {
  const key = (e: { source: string; id: string }) => `${e.source}:${e.id}`;
  return {
    ...selection,
    entries: selection.entries.filter((e) => !taken.has(key(e))),
    candidates: selection.candidates.map((c) =>
      taken.has(key(c)) ? { ...c, status: "already-injected" as const, reason: "given by another call of this session at the same moment" } : c,
    ),
  };
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
