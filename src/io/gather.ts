import { stemmer } from "stemmer";
import { memoize } from "../core/memo.js";
import type { Config } from "../core/config.js";
import { settingOrigins, type SettingOrigin } from "../core/config-layers.js";
import { locateOptionsOf, locateSource } from "../core/sources/index.js";
import { importSyntaxOf } from "../core/sources/source.js";
import { selectContext, type CustomInput, type Selection } from "../core/select.js";
import type { CountTokens } from "../core/tokens.js";
import { resolveOptions, type OptionFlags, type ResolvedOptions } from "../core/options.js";
import type { Candidate, SourceFile, Warning } from "../core/types.js";
import type { RunMemo } from "../core/run-memo.js";
import { agentProfileAt } from "./agent-settings.js";
import { loadRunMemo } from "./warm-cache.js";
import { loadConfig } from "./config.js";
import { deadlineCheck } from "./deadline.js";
import { readCustomEntries } from "./custom.js";
import { discover } from "./discover.js";
import { readImports } from "./imports.js";
import { readSourceFiles } from "./read.js";
import { toRootRelative, under, workingFolderOf } from "./paths.js";
import { linearEngine } from "./linear-regexp.js";
import { dirOf } from "../core/rel-path.js";
import { PACKAGE_MANIFESTS } from "../core/sources/readme.js";
import { findRoot } from "./root.js";
import { contentHash, type InjectedRecords, type StoredEntry } from "./session-store.js";
import { promptTargets, resolveTargets, type TargetOptions } from "./targets.js";
import { loadTokenizer } from "./tokenizer.js";

export interface GatherOptions extends TargetOptions, OptionFlags {
  cwd: string;
  /** The environment git and the ignore rules are read with (default: this process's). */
  env?: Record<string, string | undefined>;
  root?: string;
  /** The user's prompt: keyword modes, `@rule` mentions, file paths it names, relevance. */
  prompt?: string;
  /**
   * Given the project's config, the agent whose own loading is left out (hooks skip what their agent loads itself),
   * as that agent's settings in this project and home have it.
   */
  excludeFor?: (config: Config) => string | undefined;
  /** The files were read by the agent's own read tool (its profile may say it added their folders' files). */
  readByAgent?: boolean;
  /** When the process started: set by hooks, whose work stops at config hookDeadlineMs from it (DeadlineExceeded). */
  startedAt?: number;
  /** Session entries to join the build (claimed or peeked by the caller), and the session's name for reasons. */
  session?: { id: string; entries: StoredEntry[]; injected?: InjectedRecords };
}

export interface Gathered {
  /** The key a session records a candidate under: its absolute real path (files) or source:id. */
  keyOf: (candidate: Candidate) => string;
  /** The instruction files read, imported ones included (doctor checks their text). */
  files: SourceFile[];
  /** What a session records as injected for these candidates: absolute real path (files) or source:id, and content hash. */
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
}

/** The whole read side of a build: root, config, targets, discovery, reading, then the pure selection. */
export async function gather(options: GatherOptions): Promise<Gathered> {
  const { root, gitTop } = findRoot(options.cwd, options.root);
  const env = options.env ?? process.env;
  const { config, file: configPath, origins, warnings: configWarnings } = await loadConfig(root, env);
  const checkDeadline = deadlineCheck(options.startedAt, config.hookDeadlineMs);
  const { targets, warnings } = resolveTargets(options.cwd, root, gitTop, options);
  warnings.unshift(...configWarnings);
  const prompt = options.prompt !== undefined && options.prompt.trim() !== "" ? options.prompt : undefined;
  if (prompt !== undefined) for (const path of promptTargets(options.cwd, root, prompt)) if (!targets.includes(path)) targets.push(path);
  const resolved = resolveOptions(options, config);
  const all = resolved.all;
  const countTokens = await loadTokenizer(resolved.tokenizer);
  // This run's memo, with the globs compiled and words stemmed by earlier runs in this project (core/warm.ts); this
  // run's added on the way out.
  const { memo, save: saveWarm } = loadRunMemo(env, root);
  const stem = prompt !== undefined || targets.length > 0 ? memo.warm.stem(stemmer) : undefined;
  const located = locateOptionsOf(config, resolved.mode);
  const discovered = await discover({
    root,
    gitTop,
    ...located,
    scope: all ? { all: true } : { all: false, targets },
    env,
    readIgnored: config.agents.readIgnored,
    ...(all && config.allReadmes !== true && { alsoNames: PACKAGE_MANIFESTS }),
    memo,
  });
  const paths = discovered.paths;
  checkDeadline();
  warnings.push(...discovered.warnings);
  const readOptions = { allowOutside: config.allowOutside, onFile: checkDeadline };
  const found = readSourceFiles(root, paths, readOptions);
  const imported = readImports(root, found.files, (path) => importSyntaxOf(locateSource(path, located, memo)?.module), readOptions);
  const read = { files: [...found.files, ...imported.files], warnings: [...found.warnings, ...imported.warnings] };
  const custom = readCustomEntries(root, config);
  const realOf = new Map(read.files.map((f) => [f.path, under(root, f.realPath ?? f.path)]));
  // The gate asks for each candidate's hash and the session's records again for those included: one pass each text.
  const hashOf = memoize(contentHash);
  const keyFor = (c: Candidate) => (c.path !== null ? (realOf.get(c.path) ?? under(root, c.path)) : `${c.source}:${c.id}`);
  const session = options.session;
  const native = options.excludeFor?.(config);
  const configured = native === undefined ? undefined : agentProfileAt(native, root, env);
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
  const selection = selectContext({
    files: read.files,
    targets,
    all,
    ...(all && config.allReadmes !== true && { packageRoots: new Set(discovered.also.map(dirOf)) }),
    rules: resolved.rules,
    ...(resolved.mode !== undefined && { mode: resolved.mode }),
    custom: [...custom.entries, ...sessionEntries],
    ...(exclude && { exclude, workingFolder: workingFolderOf(root, options.cwd), ...(options.readByAgent && { reads: targets }) }),
    // A text is hashed only where the session has a record of its key: a new session hashes nothing here.
    ...(injected && {
      alreadyInjected: (c: Candidate) => {
        const key = keyFor(c);
        return injected.hasKey(key) && injected.has(key, hashOf(c.content));
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
  });
  // A --all run touches every rule of the tree: what it works out would fill the file every hook reads with
  // entries a hook never asks for (a 36 KB file on the benchmark's large tree). It uses what is saved, adds nothing.
  if (!all) saveWarm();
  checkDeadline();
  const injectionRecords = (candidates: Candidate[]) =>
    candidates
      .filter((c) => c.status === "included" && c.source !== "keyword-detector" && c.kind !== "session")
      .map((c) => ({ key: keyFor(c), hash: hashOf(c.content) }));
  return { keyOf: keyFor, files: read.files, injectionRecords, root, options: resolved, settings: settingOrigins(origins, options), countTokens, config, selection, memo, warnings: [...warnings, ...read.warnings, ...custom.warnings, ...selection.warnings] };
}
