/**
 * The one pipeline every command runs, in the design's phases: root and config → targets → discover → read →
 * select → compose → commit. `runPipeline` reads top to bottom in that order; its I/O steps are the `deps` object
 * (the real io functions by default, fakes in a test), and what differs between commands is the run's `purpose`.
 */
import { stemmer } from "stemmer";
import { agentSelection } from "../core/agents/view.js";
import { compose, type Composed } from "../core/compose.js";
import type { Config } from "../core/config.js";
import { settingOrigins, type SettingOrigin } from "../core/config-layers.js";
import { memoize } from "../core/memo.js";
import { resolveOptions, type OptionFlags, type ResolvedOptions } from "../core/options.js";
import { depthOf, dirOf } from "../core/rel-path.js";
import type { RunMemo } from "../core/run-memo.js";
import { selectContext, type CustomInput, type SelectInput, type Selection } from "../core/select.js";
import { locateOptionsOf, sourceLocator } from "../core/sources/index.js";
import { PACKAGE_MANIFESTS } from "../core/sources/readme.js";
import { importSyntaxOf } from "../core/sources/source.js";
import type { CountTokens } from "../core/tokens.js";
import type { Candidate, Format, Omitted, SourceFile, Warning } from "../core/types.js";
import { agentProfileAt, profileForAs } from "./agent-settings.js";
import { loadConfig } from "./config/config.js";
import { readCustomEntries } from "./custom.js";
import { deadlineNote, deadlinePassed } from "./deadline.js";
import { discover } from "./discover.js";
import { promptEmbeddings } from "./embeddings.js";
import { gitIgnored } from "./git/git-ignore.js";
import { readImports } from "./imports.js";
import { linearEngine } from "./linear-regexp.js";
import { toRootRelative, under, workingFolderOf } from "./fs/paths.js";
import { readSourceFiles } from "./fs/read.js";
import { deniedReason } from "./fs/bounded-read.js";
import { findRoot } from "./config/root.js";
import { NOTHING_HELD, SessionClaim, SHOWN, type Collection, type Delivery, type SessionInput, type Shown } from "./session/session-claim.js";
import { contentHash, SessionStore, stateDir } from "./session/session-store.js";
import { promptTargets, resolveTargets, type TargetOptions } from "./targets.js";
import { loadTokenizer } from "./tokenizer.js";
import { loadRunMemo } from "./warm-cache.js";

/**
 * What a run is for. It decides what the session is asked for and whether a block is composed:
 * - build: the block printed or written; the session's pending entries and what it gives are claimed (commit);
 * - explain: the same run as build, traced; the session is only looked at, nothing is consumed;
 * - hook: one event of an agent's session: each text once per session (claimed like build);
 * - mcp: the MCP server's get_context: each text once per connection (claimed like build);
 * - doctor: every file read and selected, no block (`doctor` turns the selection into findings);
 * - coverage: as doctor, for `ctxinject coverage` (which rules reach which files): the selection, no block.
 */
export type Purpose = "build" | "explain" | "hook" | "mcp" | "doctor" | "coverage";

const PURPOSES: Record<Purpose, { claims: boolean; composes: boolean }> = {
  build: { claims: true, composes: true },
  explain: { claims: false, composes: true },
  hook: { claims: true, composes: true },
  mcp: { claims: true, composes: true },
  doctor: { claims: false, composes: false },
  coverage: { claims: false, composes: false },
};

/** The outside world of one run, handed down from cli/ (nothing below it reads `process`). */
export interface RunEnvironment {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Where the user's config lives (userConfigDir). */
  platform: NodeJS.Platform;
  /** The clock, for session expiry (default Date.now). */
  now?: () => number;
  /** When the process started (ms since the epoch): a hook's work stops at config hookDeadlineMs from it. */
  startedAt?: number;
}

/** What is read and selected, as flags and events ask (only what was set: config values survive). */
export interface ReadRequest extends TargetOptions, OptionFlags {
  root?: string;
  /** The user's prompt: keyword modes, `@rule` mentions, file paths it names, relevance. */
  prompt?: string;
  /** The files were read by the agent's own read tool (its profile may say it added their folders' files). */
  readByAgent?: boolean;
}

/** The selection a build or explain asks for, already mapped from flags (only what the user set). */
export type SelectionRequest = ReadRequest & {
  session?: string;
  fresh?: boolean;
  /** `build --as AGENT`: the entries that agent's own loader gives it, instead of ctxinject's selection. */
  as?: string;
};

export type PipelineRequest = SelectionRequest & {
  purpose: Purpose;
  /** Limits that depend on the project's config (a hook's character cap, what its agent loads itself). */
  limits?: (config: Config) => ComposeLimits;
  /** Stop after select, whatever the purpose: the caller reads the selection (mcp's rule list, a compaction's digest). */
  until?: "select";
};

export interface ComposeLimits {
  /** A cap in characters on top of any token budget (Claude Code's additionalContext limit). */
  maxChars?: number;
  /** The agent (profile name) whose own loading is left out, as its settings have it. */
  native?: string;
  /**
   * With a session: each line of the index of omitted rules, and each warning, is shown once (hooks run on every
   * prompt and tool call).
   */
  once?: boolean;
}

/** The read side's result: what was read and selected, with what the later phases need. */
export interface Gathered {
  /** The key a session records a candidate under: its absolute real path (files) or source:id. */
  keyOf: (candidate: Candidate) => string;
  /** The instruction files read, imported ones included (doctor checks their text). */
  files: SourceFile[];
  /**
   * What a session records as injected for these candidates: absolute real path (files) or source:id, and content
   * hash; for an entry the budget cut, a second record of how much of it was given.
   */
  injectionRecords: (candidates: Candidate[]) => Array<{ key: string; hash: string }>;
  root: string;
  /** Flags, config and defaults, merged once. */
  options: ResolvedOptions;
  /** Where each setting not left at its default came from (flag, user or repository config): explain shows it. */
  settings: Record<string, SettingOrigin>;
  countTokens: CountTokens;
  config: Config;
  selection: Selection;
  /** Everything worth a line on stderr, in the order it was found. */
  warnings: Warning[];
  /** The run's memo (core/run-memo.ts), for what the caller works out next from the same files (doctor). */
  memo: RunMemo;
  /** Saves what the run added to the warm data since select (the fingerprints of the texts a session was given). */
  saveWarm: () => void;
}

/**
 * The session's record of one index line given: its entry and tier, and its size (a changed entry is listed again).
 * A line in the likely tier ("read before you start", the prompt's) has a record of its own: a line given plain is
 * given again when a later prompt makes it likely; one given as likely is never repeated plain.
 */
const indexLineRecord = (line: Omitted) => ({
  key: `${line.tier === "likely" ? "ctxinject:index-likely" : "ctxinject:index"}:${line.source}:${line.id}`,
  hash: contentHash(String(line.tokens)),
});
/**
 * The session's record of an entry the budget cut, beside the entry's own: how many characters of its text (the one
 * `hash` names) were given. A copy of it kept for another agent that holds what was given is not sent later
 * (phases/drifted-copy.ts), whatever the rest of that copy holds: the rest of a cut entry is never sent either.
 */
const CUT = "ctxinject:cut:";
const cutRecord = (key: string, hash: string, chars: number) => ({ key: `${CUT}${key}`, hash: `${hash}.${chars}` });

const asLikely = (line: Omitted): Omitted => (line.tier === "likely" ? line : { ...line, tier: "likely" });

const NONE: ReadonlySet<string> = new Set();

/**
 * A composed run: the block, and the commit that follows writing it. With a session, the caller ends it with
 * finish() once the block is written, or abort() when it could not be: never before (a block that fails to write
 * would otherwise lose what it gave for the rest of the session).
 */
export interface Selected extends Composed, Delivery {
  /** The project root the run found (build --out writes below it). */
  root: string;
  prompt: string | undefined;
  /** Where each setting not left at its default came from (explain). */
  settings: Record<string, SettingOrigin>;
  format: Format;
  warnings: Warning[];
}

/** The pipeline's I/O, one function per step; IO_DEPS are the real ones. */
export interface PipelineDeps {
  findRoot: typeof findRoot;
  loadConfig: typeof loadConfig;
  resolveTargets: typeof resolveTargets;
  promptTargets: typeof promptTargets;
  loadTokenizer: typeof loadTokenizer;
  loadRunMemo: typeof loadRunMemo;
  discover: typeof discover;
  readSourceFiles: typeof readSourceFiles;
  readImports: typeof readImports;
  readCustomEntries: typeof readCustomEntries;
  agentProfileAt: typeof agentProfileAt;
  profileForAs: typeof profileForAs;
  /** The session store of this user and machine. */
  sessions: (env: Record<string, string | undefined>) => SessionStore;
  /** The user's embedding server's vectors for the prompt and the rules scored (nothing unless configured). */
  promptEmbeddings: typeof promptEmbeddings;
}

export const IO_DEPS: PipelineDeps = {
  findRoot,
  loadConfig,
  resolveTargets,
  promptTargets,
  loadTokenizer,
  loadRunMemo,
  discover,
  readSourceFiles,
  readImports,
  readCustomEntries,
  agentProfileAt,
  profileForAs,
  sessions: (env) => new SessionStore(stateDir(env)),
  promptEmbeddings,
};

/**
 * One run of the pipeline for its purpose. Build, explain, hooks and mcp's get_context compose a block (finish()
 * commits what the session was given once the block is written); doctor and coverage, or `until: "select"`, stop
 * after select and get what was read and selected.
 */
export function runPipeline(
  run: RunEnvironment,
  request: PipelineRequest & ({ purpose: "doctor" | "coverage" } | { until: "select" }),
  deps?: PipelineDeps,
): Promise<Gathered>;
export function runPipeline(run: RunEnvironment, request: PipelineRequest, deps?: PipelineDeps): Promise<Selected>;
export async function runPipeline(run: RunEnvironment, request: PipelineRequest, deps: PipelineDeps = IO_DEPS): Promise<Selected | Gathered> {
  const { purpose, limits: limitsFor = noLimits, until, session: sessionId, fresh, as: asAgent, ...read } = request;
  const { claims, composes } = PURPOSES[purpose];
  if (!composes || until === "select") return gather(run, read, deps, purpose, (config) => limitsFor(config).native);
  // The session first: a claim takes its pending entries, which join the selection. What it takes and gives is
  // final only once the caller has written the output (finish), and given back when it could not (abort).
  let collection: Collection | null = null;
  let unopened: Warning | undefined;
  const store = sessionId !== undefined ? deps.sessions(run.env) : null;
  const session =
    sessionId !== undefined && store !== null
      ? await SessionClaim.open(store, sessionId, { takes: claims, fresh: fresh === true, collection: () => collection }).catch((error: unknown) => {
          // A state folder that cannot be read either: the answer comes without the session (unsavedSession says why).
          unopened = unsavedSession(error, store.dir);
          return null;
        })
      : null;
  try {
    // root and config → targets → discover → read → select
    const gathered = await gather(run, read, deps, purpose, (config) => limitsFor(config).native, session?.input);
    if (unopened !== undefined) gathered.warnings.push(unopened);
    collection = { maxAgeMs: gathered.config.sessions.maxAgeHours * 3_600_000, intervalMs: GC_INTERVAL_MS, now: (run.now ?? Date.now)() };
    // compose
    const limits = limitsFor(gathered.config);
    const { format, maxTokens, tokenizer, provenance, all } = gathered.options;
    const seen = limits.once === true ? session?.input.injected : undefined;
    const profile = deps.profileForAs(asAgent, gathered.root, run, (warnings) => gathered.warnings.push(...warnings));
    const selection = profile ? agentSelection(profile, gathered.selection, workingFolderOf(gathered.root, run.cwd)) : gathered.selection;
    let shown: Shown = seen ? gathered.warnings.map((w) => ({ w, key: warningKey(w) })).filter(({ key }) => !seen.has(key, SHOWN)) : null;
    // With `once`, each line of the index reaches the agent once (until its entry changes size): a later call
    // lists only the lines not given yet, whether the entry was below the threshold or left out by the budget.
    const namedIn = (namedElsewhere: ReadonlySet<string>) =>
      seen &&
      ((line: Omitted) => {
        const given = (record: { key: string; hash: string }) => namedElsewhere.has(record.key) || seen.has(record.key, record.hash);
        return given(indexLineRecord(line)) || (line.tier !== "likely" && given(indexLineRecord(asLikely(line))));
      });
    const composeOf = (chosen: Selection, namedElsewhere: ReadonlySet<string> = NONE) => {
      const named = namedIn(namedElsewhere);
      return compose(chosen, {
        format,
        root: gathered.root,
        tokenizer,
        provenance,
        all,
        ...budget(gathered.countTokens, maxTokens, limits.maxChars),
        ...(named && { named }),
      });
    };
    let composed = composeOf(selection);
    // commit: what this call gives is claimed now, and stays given once the caller has written it (finish).
    let held: Delivery = session ?? NOTHING_HELD;
    if (claims && session) {
      const indexOf = (c: Composed) => (seen ? c.doc.omitted.map(indexLineRecord) : []);
      try {
        ({ composed, shown } = session.give({ recordsOf: gathered.injectionRecords, selection, composeOf, composed, indexOf, shown }));
      } catch (error) {
        // A session that cannot be saved never costs the answer (a hook would fail the user's prompt): it is given
        // unremembered, with a warning, and what the claim holds goes back.
        const saving = unsavedSession(error, store!.dir);
        await session.abort().catch(() => undefined);
        held = NOTHING_HELD;
        shown = null;
        gathered.warnings.push(saving);
      }
      gathered.saveWarm();
    }
    return {
      ...composed,
      root: gathered.root,
      prompt: read.prompt,
      format,
      settings: gathered.settings,
      warnings: shown ? shown.map(({ w }) => w) : gathered.warnings,
      finish: () => held.finish(),
      abort: () => held.abort(),
    };
  } catch (error) {
    await session?.abort();
    throw error;
  }
}

/** The warning of a session whose state folder a system call refused (permission denied, a full disk); any other error is thrown again. */
function unsavedSession(error: unknown, dir: string): Warning {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof (error as NodeJS.ErrnoException | undefined)?.syscall !== "string" || code === undefined) throw error;
  const why = deniedReason(error) ?? code;
  return { message: `the session cannot be saved in ${dir} (${why}): this answer is given, and the session will not remember it` };
}

/** The read side: root and config → targets → discover → read → select. */
async function gather(
  run: RunEnvironment,
  options: ReadRequest,
  deps: PipelineDeps,
  purpose: Purpose,
  excludeFor: (config: Config) => string | undefined,
  session?: SessionInput,
): Promise<Gathered> {
  const { cwd, env } = run;
  // root and config
  const { root, gitTop } = deps.findRoot(cwd, options.root);
  const { config, file: configPath, origins, warnings: configWarnings } = await deps.loadConfig(root, env, run.platform);
  // A hook's deadline stops the reading, the redaction and dedup where they are: the answer is what was found by then.
  const stop = { passed: deadlinePassed(run.startedAt, config.hookDeadlineMs), note: deadlineNote(config.hookDeadlineMs) };
  // targets
  const { targets, warnings } = deps.resolveTargets(cwd, root, gitTop, options, env);
  warnings.unshift(...configWarnings);
  const prompt = options.prompt !== undefined && options.prompt.trim() !== "" ? options.prompt : undefined;
  const mentioned = prompt !== undefined ? deps.promptTargets(cwd, root, prompt) : [];
  for (const path of mentioned) if (!targets.includes(path)) targets.push(path);
  const resolved = resolveOptions(options, config);
  const all = resolved.all;
  const countTokens = await deps.loadTokenizer(resolved.tokenizer);
  // This run's memo, with the globs compiled and words stemmed by earlier runs in this project (core/warm.ts); this
  // run's added on the way out.
  const { memo, save: saveWarm } = deps.loadRunMemo(env, root);
  const stem = prompt !== undefined || targets.length > 0 ? memo.warm.stem(stemmer) : undefined;
  const located = locateOptionsOf(config, resolved.mode);
  // discover
  const discovered = await deps.discover({
    root,
    gitTop,
    ...located,
    scope: all ? { all: true } : { all: false, targets },
    env,
    platform: run.platform,
    readIgnored: config.agents.readIgnored,
    ...(all && config.allReadmes !== true && { alsoNames: PACKAGE_MANIFESTS }),
    memo,
  });
  const paths = discovered.paths;
  warnings.push(...discovered.warnings);
  // read
  const readOptions = { allowOutside: config.allowOutside, stop };
  // A hook reads the files nearer the root first: what its deadline lets it read is the root's and each package's own
  // rules, before a folder of thousands further down.
  const found = deps.readSourceFiles(root, run.startedAt === undefined ? paths : shallowFirst(paths), readOptions);
  // The run's locator looked up once, not per file (--all reads thousands).
  const locateFound = sourceLocator(located, memo);
  // Imports never read what git ignores (`@.env`): asked of git only where a file imports one that is there.
  const ignoredOf = (asked: string[]) => (gitTop === null ? () => false : gitIgnored(gitTop, root, asked, env, run.platform, memo));
  const imported = deps.readImports(root, found.files, (path) => importSyntaxOf(locateFound(path)?.module), readOptions, ignoredOf);
  const read = { files: [...found.files, ...imported.files], warnings: [...found.warnings, ...imported.warnings] };
  const custom = deps.readCustomEntries(root, config);
  const realOf = new Map(read.files.map((f) => [f.path, under(root, f.realPath ?? f.path)]));
  // The gate asks for each candidate's hash and the session's records again for those included: one pass each text,
  // and a text an earlier run hashed (a rule given prompt after prompt) is looked up instead (core/warm.ts).
  const hashOf = memoize((text: string) => memo.warm.hash(text, () => contentHash(text)));
  const keyFor = (c: Candidate) => (c.path !== null ? (realOf.get(c.path) ?? under(root, c.path)) : `${c.source}:${c.id}`);
  const native = excludeFor(config);
  const configured = native === undefined ? undefined : deps.agentProfileAt(native, root, run);
  if (configured) warnings.push(...configured.warnings);
  const exclude = configured?.profile?.loadsItself;
  const injected = session?.injected;
  const sessionEntries: CustomInput[] = (session?.entries ?? []).map((e) => ({
    id: e.id,
    content: e.content,
    priority: e.priority,
    source: e.source,
    kind: "session",
    reason: `registered into session ${session!.id} by ${e.source}`,
  }));
  // select
  const selectInput: SelectInput = {
    files: read.files,
    targets,
    all,
    ...(all && config.allReadmes !== true && { packageRoots: new Set(discovered.also.map(dirOf)) }),
    rules: resolved.rules,
    ...(resolved.mode !== undefined && { mode: resolved.mode }),
    custom: [...custom.entries, ...sessionEntries],
    ...(exclude && {
      exclude,
      workingFolder: workingFolderOf(root, cwd),
      ...(options.readByAgent && { reads: targets }),
      mentioned: mentioned.filter((path) => !path.endsWith("/")),
    }),
    // A text is hashed only where the session has a record of its key: a new session hashes nothing here.
    ...(injected && {
      alreadyInjected: (c: Candidate) => {
        const key = keyFor(c);
        return injected.hasKey(key) && injected.has(key, hashOf(c.content));
      },
      givenCut: (c: Candidate) => {
        const key = `${CUT}${keyFor(c)}`;
        if (!injected.hasKey(key)) return undefined;
        const given = `${hashOf(c.content)}.`;
        const hash = injected.hashesOf(key).find((h) => h.startsWith(given));
        return hash === undefined ? undefined : Number(hash.slice(given.length));
      },
    }),
    config,
    countTokens,
    ...(prompt !== undefined && { prompt }),
    ...(stem && { stem }),
    minRelevance: resolved.minRelevance,
    linear: linearEngine,
    memo,
    ...(configPath !== null && { configFile: toRootRelative(root, configPath) ?? configPath }),
    stop,
  };
  let selection = selectContext(selectInput);
  // The user's embeddings, when configured: the rules the words scored are embedded, and the selection is made
  // again with the vectors (the core takes them as plain values). Without them, or when the server fails, the first
  // selection stands. The purpose says whether the run may wait for the rules' vectors (explain) or not.
  if (!all && selection.scored !== undefined && selection.scored.length > 0) {
    const semantic = await deps.promptEmbeddings(config, env, prompt, selection.scored, purpose === "explain");
    warnings.push(...semantic.warnings);
    // Made again in full, or not at all: past the deadline the first selection stands, cut where the deadline cut it.
    if (semantic.semantic && !stop.passed()) selection = selectContext({ ...selectInput, semantic: semantic.semantic, stop: undefined });
  }
  // A --all run touches every rule of the tree: what it works out would fill the file every hook reads with
  // entries a hook never asks for (a 36 KB file on the benchmark's large tree). It uses what is saved, adds nothing.
  if (!all) saveWarm();
  const injectionRecords = (candidates: Candidate[]) =>
    candidates
      .filter((c) => (c.status === "included" || c.status === "trimmed") && c.source !== "keyword-detector" && c.kind !== "session")
      .flatMap((c) => {
        const record = { key: keyFor(c), hash: hashOf(c.content) };
        return c.status === "trimmed" && c.sentChars !== undefined ? [record, cutRecord(record.key, record.hash, c.sentChars)] : [record];
      });
  return {
    keyOf: keyFor,
    files: read.files,
    injectionRecords,
    saveWarm: all ? () => undefined : saveWarm,
    root,
    options: resolved,
    settings: settingOrigins(origins, options),
    countTokens,
    config,
    selection,
    memo,
    warnings: [...warnings, ...read.warnings, ...custom.warnings, ...selection.warnings],
  };
}

/** Paths by how deep they are, in their order within a depth (a stable sort). */
function shallowFirst(paths: string[]): string[] {
  const depth = new Map(paths.map((p) => [p, depthOf(p)]));
  return [...paths].sort((a, b) => depth.get(a)! - depth.get(b)!);
}

const noLimits = (): ComposeLimits => ({});

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
