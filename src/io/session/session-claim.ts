/**
 * What one call of a session takes and gives, held until its output is written (build --session, a hook's answer,
 * mcp's get_context, the opencode plugin's part): the session's pending entries it takes, and each text, the index
 * of omitted rules and each warning it gives. Nothing is final before `finish()`, which the caller runs once the
 * output is out; `abort()` (the output never left) gives everything back, so the session's next call has it.
 */
import type { Composed } from "../../core/compose.js";
import type { Selection } from "../../core/select.js";
import type { Candidate, Warning } from "../../core/types.js";
import type { Claim, InjectedRecord, InjectedRecords, SessionStore, StoredEntry } from "./session-store.js";

/** The end of a call that takes or gives session state: one of the two, once the output is written or not. */
export interface Delivery {
  /** The output is out: what was taken is gone for good, what was given stays given. */
  finish(): Promise<void>;
  /** The output never left: what was taken goes back to pending, what was given is no longer given. */
  abort(): Promise<void>;
}

/** Nothing taken, nothing given: an answer with nothing of the session's in it. */
export const NOTHING_HELD: Delivery = { finish: async () => undefined, abort: async () => undefined };

/** The session as the selection sees it: its entries (taken or only looked at), what it was given before. */
export interface SessionInput {
  id: string;
  entries: StoredEntry[];
  /** Unset with `--fresh`: everything is given again. */
  injected?: InjectedRecords;
}

/** A warning the session showed is recorded under its key with this hash. */
export const SHOWN = "shown";

/** Warnings with their session keys; null where the session's records do not filter them. */
export type Shown = Array<{ w: Warning; key: string }> | null;

/** What a composed output would give: `give` claims it, leaving out what another call of the session holds. */
export interface Offer {
  /**
   * The session's records of these candidates (key and content hash), for those a session records; asked of one
   * candidate at a time, its text's record first (a cut entry's has a second: how much of it was given).
   */
  recordsOf: (candidates: Candidate[]) => InjectedRecord[];
  selection: Selection;
  /** Composes a selection, leaving out of its index the lines whose keys are in `namedElsewhere` (another call's). */
  composeOf: (selection: Selection, namedElsewhere: ReadonlySet<string>) => Composed;
  composed: Composed;
  /** The records of the index lines a composed output shows, where the session records them (each line once). */
  indexOf: (composed: Composed) => InjectedRecord[];
  shown: Shown;
}

/** What expired sessions are looked for with, once a call finishes. */
export interface Collection {
  maxAgeMs: number;
  intervalMs: number;
  now: number;
}

export class SessionClaim implements Delivery {
  private readonly releases: Array<() => void> = [];
  private settled = false;

  private constructor(
    private readonly store: SessionStore,
    /** The session's pending entries this call took (null: it only looked at them). */
    private readonly taken: Claim | null,
    /** `--fresh`: given again whatever the session had; what another call holds is no reason to leave a text out. */
    private readonly fresh: boolean,
    readonly input: SessionInput,
    private readonly collection: () => Collection | null,
  ) {}

  /**
   * Opens the session for one call: with `takes`, its pending entries are this call's alone (another call gets none
   * of them); without, they are only looked at (explain). `collection` is asked on finish (the config is read later).
   */
  static async open(store: SessionStore, id: string, options: { takes: boolean; fresh: boolean; collection: () => Collection | null }): Promise<SessionClaim> {
    const taken = options.takes ? await store.claim(id) : null;
    const entries = taken ? taken.entries : await store.pending(id);
    const input: SessionInput = { id, entries, ...(!options.fresh && { injected: await store.injected(id) }) };
    return new SessionClaim(store, taken, options.fresh, input, options.collection);
  }

  /**
   * Claims what the composed output gives (texts, the index's lines, warnings). A text another call of the session claimed
   * first is marked as given and left out, and the output is composed again (which may let in a text the budget
   * had left out: it is claimed in turn), until every text in the output is this call's. Of calls at once on one
   * session (an agent's parallel tool calls), one gives each text.
   */
  give(offer: Offer): { composed: Composed; shown: Shown } {
    const { id } = this.input;
    const claim = (records: InjectedRecord[]) => {
      const won = this.store.claimInjected(id, records, this.input.injected);
      this.releases.push(won.release);
      return new Set((this.fresh ? [] : won.lost).map((r) => `${r.key}\0${r.hash}`));
    };
    // The index lines, the warnings and the texts of the first composition in one claim: one temp file and one
    // pass of links, where a claim of their own for the index and warnings cost a new session's first call a file more.
    const tried = new Set<string>();
    type Text = { id: string; record: InjectedRecord; more: InjectedRecord[] };
    const textsOf = (composed: Composed) => {
      const pairs: Text[] = [];
      for (const c of composed.candidates) {
        const key = `${c.source}:${c.id}`;
        const [record, ...more] = tried.has(key) ? [] : offer.recordsOf([c]);
        if (record === undefined) continue;
        tried.add(key);
        pairs.push({ id: key, record, more });
      }
      return pairs;
    };
    const recordsOf = (texts: Text[]) => texts.flatMap((p) => [p.record, ...p.more]);
    const linesTried = new Set<string>();
    const linesOf = (composed: Composed) => offer.indexOf(composed).filter((r) => !linesTried.has(r.key) && linesTried.add(r.key));
    const namedElsewhere = new Set<string>();
    const { shown: shownFirst } = offer;
    let pairs = textsOf(offer.composed);
    let lines = linesOf(offer.composed);
    const lostFirst = claim([...lines, ...(shownFirst ?? []).map(({ key }) => ({ key, hash: SHOWN })), ...recordsOf(pairs)]);
    const shown = shownFirst && shownFirst.filter(({ key }) => !lostFirst.has(`${key}\0${SHOWN}`));
    let selection = offer.selection;
    let composed = offer.composed;
    let lost = lostFirst;
    for (;;) {
      // An index line another call gave at the same moment is left out of this one's index, like a text.
      const linesLost = lines.filter((r) => lost.has(`${r.key}\0${r.hash}`));
      for (const r of linesLost) namedElsewhere.add(r.key);
      const taken = new Set(pairs.filter((p) => lost.has(`${p.record.key}\0${p.record.hash}`)).map((p) => p.id));
      if (taken.size > 0) selection = withoutTaken(selection, taken);
      if (taken.size === 0 && linesLost.length === 0) return { composed, shown };
      composed = offer.composeOf(selection, namedElsewhere);
      pairs = textsOf(composed);
      lines = linesOf(composed);
      lost = claim([...lines, ...recordsOf(pairs)]);
    }
  }

  /** The output is out: the entries taken are gone, what was given stays given; expired sessions are collected now and then. */
  async finish(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    this.releases.length = 0;
    await this.taken?.commit();
    const collection = this.collection();
    if (collection) await this.store.collectGarbageOccasionally(collection.maxAgeMs, collection.intervalMs, collection.now, this.input.id);
  }

  /** The output never left: the entries taken go back to pending, and nothing this call gave counts as given. */
  async abort(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    for (const release of this.releases.splice(0)) release();
    await this.taken?.release();
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
