import type { Config } from "./config.js";
import { compileGlobs } from "./parse/globs.js";
import { DEFAULT_MIN_RELEVANCE, scorePhase } from "./phases/score.js";
import { gatePhase, type Exclude } from "./phases/gate.js";
import { byPriority, orderPhase } from "./phases/order.js";
import { dedupBudget, dedupPhase } from "./phases/dedup.js";
import { oneSkillPerText } from "./phases/same-skill.js";
import { importPartsOf, placeAfterImporters, unfoldOversized } from "./phases/unfold.js";
import type { Drafted } from "./phases/drafted.js";
import { ruleMentions } from "./prompt/mentions.js";
import { pathTopicWords, withPathTopics, type Stem } from "./prompt/words.js";
import { withoutPaths } from "./prompt/prose.js";
import type { RelevanceDoc, ScoreOptions } from "./prompt/relevance.js";
import type { SemanticInput } from "./prompt/semantic.js";
import { hiddenMessage, type HiddenCharacters } from "./hidden.js";
import { mayHoldCredentials, PATTERN_REDACTIONS, type Redaction } from "./redact.js";
import { gateText, redactStripped, stripStep, type GatedText, type GateOptions } from "./text-gate.js";
import { compareText, dirOf } from "./rel-path.js";
import { locateOptionsOf, SOURCE_MODULES } from "./sources/index.js";
import { locator } from "./sources/locate.js";
import type { CustomInput, DraftContext, Located, SourceModule } from "./sources/source.js";
import { approxTokens, utf8Bytes, type CountTokens } from "./tokens.js";
import type { Candidate, Entry, Omitted, SourceFile, Warning } from "./types.js";
import { loadsThroughAnyPath } from "./agents/profile.js";
import { oneFilePerRealPath } from "./same-file.js";
import type { LinearEngine } from "./linear-regexp.js";
import { createRunMemo, type RunMemo } from "./run-memo.js";
import { mayStopAfter, type StopSignal } from "./work-budget.js";
import { INDEX_EXPLAINED, LIKELY_EXPLAINED } from "./render/tiers.js";

// Defined beside the gate that applies it, so that the gate does not import select back.
export type { Exclude };

export type { CustomInput } from "./sources/source.js";
export { DEFAULT_MIN_RELEVANCE } from "./phases/score.js";

export interface SelectInput {
  /** Instruction files found by discover (any order: the core sorts them). */
  files: SourceFile[];
  /** Root-relative target paths. */
  targets: string[];
  /** Include every rule whatever its kind, and every AGENTS.md/README, for generated files. */
  all?: boolean;
  /** Manual rules asked for by name (`--rule`). */
  rules?: string[];
  custom?: CustomInput[];
  config: Config;
  countTokens?: CountTokens;
  /** The user's prompt: keyword modes, `@rule` mentions and relevance come from it. */
  prompt?: string;
  /** Stemmer for relevance (the caller loads one); words are compared as they are without it. */
  stem?: Stem;
  /** Threshold for agent-requested rules, 0..1 (resolveOptions merges flag and config; DEFAULT_MIN_RELEVANCE without). */
  minRelevance?: number;
  /** True for what this session already injected, unchanged since (build --session); never asked for keyword modes. */
  alreadyInjected?: (candidate: Candidate) => boolean;
  /**
   * Of a text alreadyInjected holds: how many of its characters the session was given, when the budget cut it (the
   * rest never reached the agent; a copy for another agent that holds what it was given is not sent either).
   */
  givenCut?: (candidate: Candidate) => number | undefined;
  /** A reason to leave a candidate out (e.g. "Claude Code loads it itself"), or null to keep it. */
  exclude?: Exclude;
  /** The folder the agent runs in, root-relative ("" for the root), for `exclude`. */
  workingFolder?: string;
  /** Targets the agent's own read tool has just read, for `exclude`. */
  reads?: string[];
  /** Files the user's prompt names (at prompt time), for `exclude`: see LoadedContext.mentioned. */
  mentioned?: string[];
  /** The agent mode in use (Roo Code's mode rules); resolveOptions merges `--mode` and the config. */
  mode?: string;
  /**
   * The linear-time engine for patterns the repository supplies (keyword patterns, rich globs; io/linear-regexp.ts).
   * Without it such a pattern matches nothing, with a warning.
   */
  linear?: LinearEngine;
  /** The config file, root-relative, for warnings about its keys. */
  configFile?: string;
  /** --all: folders holding a package manifest, whose READMEs are read (io/pipeline.ts finds them); absent: every folder's. */
  packageRoots?: ReadonlySet<string>;
  /** The source modules to draft from; SOURCE_MODULES unless a test narrows them. */
  modules?: readonly SourceModule[];
  /** The run's memo (core/run-memo.ts; the I/O layer's, with what earlier runs saved); a fresh one without. */
  memo?: RunMemo;
  /** The scorer's special cases turned off, to measure what each earns (test/relevance/evaluate.ts `--without=`). */
  scoring?: ScoreOptions;
  /** The user's embeddings of the prompt and the rules (io/embeddings.ts): the likely tier fuses them with the words. */
  semantic?: SemanticInput;
  /**
   * A hook's deadline: asked between files redacted (a file not redacted by then is left out, never sent as it is)
   * and during dedup's comparisons (texts not compared by then are sent as they are). The selection is made of what
   * was done by then.
   */
  stop?: StopSignal;
}

export interface Selection {
  targets: string[];
  /** Every candidate, included or not, in final order. */
  candidates: Candidate[];
  entries: Entry[];
  omitted: Omitted[];
  warnings: Warning[];
  /** The description-only rules scored against the prompt (what the user's embedding server is asked about). */
  scored?: RelevanceDoc[];
  /**
   * Where an entry's text holds imported files: the parts compose unfolds it into when it does not fit a budget whole
   * (core/phases/unfold.ts). Absent when no entry imports anything.
   */
  importParts?: (importer: Candidate) => Candidate[];
}

/**
 * The pure selection: draft (each source module), score (relevance), gate (checks every candidate passes),
 * order (registration order, overwrites), dedup (one copy of each text). The budget is compose's phase.
 * Knows no source by name.
 */
export function selectContext(input: SelectInput): Selection {
  const modules = input.modules ?? SOURCE_MODULES;
  const warnings: Warning[] = [];
  const warn = (w: Warning) => void warnings.push(w);
  const strip = input.config.hiddenCharacters !== "keep";
  // What a reviewer cannot see never reaches the agent either: hidden characters go, then credentials (the gate).
  const gate = { strip, redact: input.config.redact !== false };
  const redact = (text: string, where: string) => {
    const gated = gateText(text, gate);
    warnGated(gated, where, warn);
    return gated.text;
  };
  // Credentials are replaced before anything is parsed, so no later step can print them.
  const files = redactFiles(byPath(input.files), strip, input.config.redact !== false, warn, input.memo, input.stop);
  const ctx = draftContext(input, files, warn, redact, gate, input.memo ?? createRunMemo());
  // Every path stays readable for imports; a file reached through several paths is drafted once.
  const { kept, aliasesOf } = oneFilePerRealPath(files);

  const located = locateAll(kept, modules, ctx);
  // Each module's drafts are its own fresh objects: marked with their module in place, not copied (--all drafts
  // thousands).
  const drafts: Drafted[] = modules.flatMap((module, moduleIndex) =>
    module.draft(ctx, located.get(module) ?? []).map((draft) => Object.assign(draft, { module, moduleIndex })),
  );
  if (aliasesOf.size > 0) {
    for (const { candidate } of drafts) {
      const aliases = candidate.path === null ? undefined : aliasesOf.get(candidate.path);
      if (aliases) candidate.aliases = aliases;
    }
  }
  for (const name of ctx.requested) if (!ctx.requestedFound.has(name)) warn({ message: `--rule ${name}: no rule has that name` });

  const exclude: Exclude | undefined = input.exclude && aliasesOf.size > 0 ? (c, loaded) => loadsThroughAnyPath(input.exclude!, c, loaded) : input.exclude;
  // What an agent finds is every path, links included (a CLAUDE.md that links to AGENTS.md is there for Claude Code).
  const loaded = {
    present: aliasesOf.size > 0 ? new Set([...ctx.present, ...[...aliasesOf.values()].flat()]) : ctx.present,
    workingFolder: input.workingFolder ?? "",
    reads: input.reads ?? [],
    ...(input.mentioned && { mentioned: input.mentioned }),
    bytesOf: (path: string) => utf8Bytes(ctx.files.get(path)?.text ?? ""),
  };
  oneSkillPerText(drafts, (path) => ctx.files.get(path)?.text, exclude && { exclude, loaded });

  // Paths count by their topic words only: src, packages and .ts are in every path of a repository.
  const query = [withPathTopics(input.prompt ?? ""), ...ctx.targets.map(pathTopicWords)].join("\n");
  const scored = scorePhase(
    drafts,
    query,
    input.minRelevance ?? DEFAULT_MIN_RELEVANCE,
    input.stem ?? ((w) => w),
    input.semantic,
    withoutPaths(input.prompt ?? ""),
    input.scoring,
  );
  // An importer the cap would cut is sent as written, its imported files on their own (before the gate: they pass it too).
  unfoldOversized(drafts, { files: ctx.files, memo: ctx.memo, countTokens: ctx.countTokens }, (c) => (exclude?.(c, loaded) ?? null) !== null, warn);
  const known = gatePhase(drafts, {
    config: input.config,
    ignored:
      input.config.ignore.length > 0
        ? compileGlobs(input.config.ignore, "", {
            ...(input.linear !== undefined && { linear: input.linear }),
            memo: ctx.memo,
            refused: (pattern, reason) =>
              warn({ file: input.configFile ?? "config", message: `ignore: the glob ${JSON.stringify(pattern)} is not matched: ${reason}` }),
          })
        : null,
    countTokens: ctx.countTokens,
    exclude,
    loaded,
    alreadyInjected: input.alreadyInjected,
    givenCut: input.givenCut,
    warn,
  });
  const ordered = placeAfterImporters(orderPhase(drafts));
  const budget = dedupBudget(ordered, input.stop?.passed);
  const entries = dedupPhase(ordered, known, new Map(files.map((f) => [f.path, f.realPath ?? f.path])), ctx.targets, budget);
  if (budget.exhausted) {
    const why = input.stop?.passed() === true ? input.stop.note : "more texts share lines than dedup compares";
    warn({ message: `${why}: texts not compared for copies are sent as they are` });
  }

  const candidates = byPriority(ordered);
  // The likely tier heads the index (strongest first), so a budget short of room cuts the plain index first.
  const left = candidates.filter((c) => c.status === "below-threshold" || c.status === "over-budget");
  const likely = left.filter((c) => c.likely !== undefined && c.status === "below-threshold").sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
  const omitted = [...likely, ...left.filter((c) => !likely.includes(c))].map(toOmitted);
  // explain says where every left-out candidate went, and which tier.
  for (const c of candidates) {
    if (c.status !== "below-threshold") continue;
    c.reason = c.likely !== undefined && likely.includes(c) ? `${c.reason}; ${LIKELY_EXPLAINED}` : `${c.reason}; ${INDEX_EXPLAINED}`;
  }
  const selection: Selection = { targets: ctx.targets, candidates, entries, omitted, warnings, scored };
  if (entries.some((e) => e.imports !== undefined))
    selection.importParts = importPartsOf(candidates, { files: ctx.files, memo: ctx.memo, countTokens: ctx.countTokens });
  return selection;
}

function draftContext(
  input: SelectInput,
  files: SourceFile[],
  warn: DraftContext["warn"],
  redact: DraftContext["redact"],
  gate: GateOptions,
  memo: RunMemo,
): DraftContext {
  const targets = [...new Set(input.targets)].sort(compareText);
  const prompt = input.prompt !== undefined && input.prompt.trim() !== "" ? input.prompt : undefined;
  return {
    config: input.config,
    targets,
    targetDirs: [...new Set(targets.map(dirOf))],
    present: new Set<string>(),
    all: input.all === true,
    prompt: input.prompt,
    requested: new Set(input.rules ?? []),
    mentioned: new Set(prompt ? ruleMentions(prompt) : []),
    requestedFound: new Set(),
    custom: input.custom ?? [],
    files: new Map(files.map((f) => [f.path, f])),
    ...(input.mode !== undefined && { mode: input.mode }),
    ...(input.packageRoots !== undefined && { packageRoots: input.packageRoots }),
    countTokens: input.countTokens ?? approxTokens,
    ...(input.linear !== undefined && { linear: input.linear }),
    memo,
    ...(input.configFile !== undefined && { configFile: input.configFile }),
    warn,
    redact,
    gate,
  };
}

function locateAll(files: SourceFile[], modules: readonly SourceModule[], ctx: DraftContext): Map<SourceModule, Located[]> {
  const where = locator(modules, locateOptionsOf(ctx.config, ctx.mode), ctx.memo);
  const byModule = new Map<SourceModule, Located[]>();
  for (const file of files) {
    const location = where(file.path);
    if (location === null) continue;
    ctx.present.add(file.path);
    const list = byModule.get(location.module) ?? [];
    list.push({ file, module: location.module, anchor: location.anchor, matched: location.matched });
    byModule.set(location.module, list);
  }
  return byModule;
}

/** The warnings for what the gate took out of one text (the run's files get theirs from redactFiles, in order). */
function warnGated(gated: GatedText, where: string, warn: (w: Warning) => void): void {
  if (gated.hidden !== null) warnHidden(gated.hidden, where, warn);
  for (const r of gated.redactions) warnRedaction(r, where, warn);
}

// A stray zero-width space in prose hid nothing: removed without a word on every run (doctor lists it).
function warnHidden(hidden: HiddenCharacters, where: string, warn: (w: Warning) => void): void {
  if (!hidden.stray) warn({ file: where, line: hidden.line, message: hiddenMessage(hidden) });
}

// An example's credential (a placeholder in a README's snippet) is redacted all the same, without a word on every
// run: it is no leak, and doctor lists it as a warning.
function warnRedaction(r: Redaction, where: string, warn: (w: Warning) => void): void {
  if (r.weak !== true) warn({ file: where, line: r.line, message: `redacted a ${r.kind} (config redact: false keeps it)` });
}

/**
 * The files through the gate (core/text-gate.ts: hidden characters, then credentials), batched: warnings in the
 * same order as one file after another. A run of a few files tests them joined for a credential's hint first (after
 * the gate's first step: a hint hidden characters split is whole again): most hold none, and one test of the joined
 * text costs a third of testing each (see mayHoldCredentials).
 */
function redactFiles(
  sorted: SourceFile[],
  strip: boolean,
  redact: boolean,
  warn: (w: Warning) => void,
  memo: RunMemo | undefined,
  stop: StopSignal | undefined,
): SourceFile[] {
  const stripped = sorted.map((file) => stripStep(file.text, { strip }));
  const scan = redact && (stripped.length > FEW_TEXTS || mayHoldCredentials(stripped.map((s) => s.text).join("\n")));
  // The pattern tests kept for doctor, which tests the same texts (a map only for a run of many files).
  const seen = scan && stripped.length > FEW_TEXTS ? memo?.get(PATTERN_REDACTIONS) : undefined;
  const out: SourceFile[] = [];
  let chars = 0;
  for (let i = 0; i < sorted.length; i++) {
    const file = sorted[i]!;
    // Past the deadline a text not redacted yet is left out, never sent as it is.
    if (scan && stop !== undefined && mayStopAfter(i, chars) && stop.passed()) {
      warn({ message: `${stop.note}: ${sorted.length - i} of ${sorted.length} files not checked for credentials in time, left out (${file.path} the first)` });
      break;
    }
    const first = stripped[i]!;
    // The note says what the file held: a selector a marker leaves behind (the gate's second step) goes unsaid.
    if (first.hidden !== null) warnHidden(first.hidden, file.path, warn);
    const gated = redactStripped(first, { strip, redact: scan, test: "patterns" });
    seen?.set(file.path, { text: first.text, redactions: gated.redactions });
    for (const r of gated.redactions) warnRedaction(r, file.path, warn);
    chars += gated.text.length;
    out.push(file.realPath === undefined ? { path: file.path, text: gated.text } : { path: file.path, text: gated.text, realPath: file.realPath });
  }
  return out;
}

/**
 * The files in path order. --all's come in that order already (git's index, a sorted walk): one look along the list
 * instead of a sort's dozen comparisons per file.
 */
function byPath(files: readonly SourceFile[]): SourceFile[] {
  for (let i = 1; i < files.length; i++) if (compareText(files[i - 1]!.path, files[i]!.path) > 0) return [...files].sort((a, b) => compareText(a.path, b.path));
  return [...files];
}

/** Texts a run tests joined: past this, --all's many files, most of them hinted. */
const FEW_TEXTS = 64;

function toOmitted(c: Candidate): Omitted {
  const o: Omitted = { source: c.source, id: c.id, priority: c.priority, path: c.path, description: c.description, tokens: c.tokens, reason: c.reason };
  if (c.likely !== undefined && c.status === "below-threshold") {
    o.tier = "likely";
    o.why = c.likely;
  }
  return o;
}
