import { ContextCollector, keyOf } from "./collector.js";
import type { Config } from "./config.js";
import { normalizeText, parseFrontmatter } from "./parse/frontmatter.js";
import { compileGlobs, type GlobMatcher } from "./parse/globs.js";
import { depthOf, dirOf, isWithin, joinPath, locate, overrideName, RULE_FORMATS, type Location, type LocateOptions } from "./sources/locate.js";
import { parseRule } from "./sources/rules.js";
import { approxTokens, type CountTokens } from "./tokens.js";
import { cutAtOrBefore } from "./budget/boundaries.js";
import { redactSecrets } from "./redact.js";
import { detectKeywords, keywordModes } from "./prompt/keywords.js";
import { ruleMentions } from "./prompt/mentions.js";
import { scoreRelevance, type RelevanceDoc } from "./prompt/relevance.js";
import type { Stem } from "./prompt/words.js";
import {
  PRIORITIES,
  SOURCES,
  type Candidate,
  type Entry,
  type Kind,
  type Omitted,
  type Priority,
  type SourceFile,
  type SourceName,
  type Status,
  type Warning,
} from "./types.js";

export interface CustomInput {
  id: string;
  content: string;
  priority?: Priority;
  /** Root-relative file the content was read from, if any. */
  path?: string | null;
  source?: string;
  /** `session` for entries registered into a session; `custom` otherwise. */
  kind?: "custom" | "session";
  /** Why it is included (explain). */
  reason?: string;
}

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
  /** Threshold for agent-requested rules, 0..1 (flag, else config, else DEFAULT_MIN_RELEVANCE). */
  minRelevance?: number;
  /** True for what this session already injected, unchanged since (build --session); never asked for keyword modes. */
  alreadyInjected?: (candidate: Candidate) => boolean;
  /** A reason to leave a candidate out (e.g. "Claude Code loads it itself"), or null to keep it. */
  exclude?: (candidate: Candidate) => string | null;
}

/** The centre of the range of thresholds with the best F1 on the tuning prompts (npm run relevance). */
export const DEFAULT_MIN_RELEVANCE = 0.25;

export interface Selection {
  targets: string[];
  /** Every candidate, included or not, in final order. */
  candidates: Candidate[];
  entries: Entry[];
  omitted: Omitted[];
  warnings: Warning[];
}

export const DEFAULT_PRIORITY: Record<SourceName, Priority> = {
  "keyword-detector": "high",
  "rules-injector": "normal",
  "directory-agents": "normal",
  "directory-readme": "low",
  custom: "normal",
};

interface Draft {
  candidate: Candidate;
  /** Registration order: general before specific (source, depth, then path). */
  sortKey: Array<number | string>;
  /** A rule's text as the relevance scorer reads it. */
  relevance?: RelevanceDoc;
}

const rank = (p: Priority) => PRIORITIES.indexOf(p);

export function selectContext(input: SelectInput): Selection {
  const { config } = input;
  const countTokens = input.countTokens ?? approxTokens;
  const targets = [...new Set(input.targets)].sort(compareText);
  const targetDirs = [...new Set(targets.map(dirOf))];
  const locateOptions: LocateOptions = { agentFiles: config.agents.files, ruleDirs: config.rules.dirs };
  const ignored = config.ignore.length > 0 ? compileGlobs(config.ignore, "") : null;
  const warnings: Warning[] = [];
  const drafts: Draft[] = [];

  // Credentials are replaced before anything is parsed, so no later step can print them.
  const redacting = config.redact !== false;
  const files = [...input.files]
    .sort((a, b) => compareText(a.path, b.path))
    .map((file) => (redacting ? redactFile(file, warnings) : file));
  const located = files.flatMap((file) => {
    const location = locate(file.path, locateOptions);
    return location ? [{ file, location }] : [];
  });
  const present = new Set(located.map((l) => l.file.path));
  const requested = new Set(input.rules ?? []);
  const requestedFound = new Set<string>();
  const mentioned = new Set(input.prompt ? ruleMentions(input.prompt) : []);

  const ctx: DecideContext = { targets, targetDirs, all: input.all === true, requested, mentioned, requestedFound, present, config };

  if (input.prompt !== undefined && input.prompt.trim() !== "") {
    detectKeywords(input.prompt, keywordModes(config.keywords)).forEach((hit, index) => {
      const candidate = makeCandidate({
        source: "keyword-detector",
        id: hit.mode.name,
        priority: config.keywords[hit.mode.name]?.priority ?? config.sources["keyword-detector"]?.priority ?? hit.mode.priority,
        kind: "keyword",
        path: null,
        content: hit.mode.content,
        countTokens,
      });
      if (!hit.mode.enabled) setStatus(candidate, "disabled", `keywords.${hit.mode.name}.enabled is false`);
      else if (hit.match === null) setStatus(candidate, "unmatched", "no trigger in the prompt");
      else setStatus(candidate, "included", `prompt says "${hit.match}"`);
      drafts.push({ candidate, sortKey: [SOURCES.indexOf("keyword-detector"), index] });
    });
  }

  for (const { file, location } of located) {
    const draft = draftFor(file, location, ctx, warnings, countTokens);
    const ignoreHit = ignored?.(file.path);
    if (ignoreHit && draft.candidate.status === "included") setStatus(draft.candidate, "disabled", `matches ignore: ${ignoreHit}`);
    drafts.push(draft);
  }

  (input.custom ?? []).forEach((custom, index) => {
    const source = custom.source ?? "custom";
    const text = normalizeText(custom.content).trim();
    const candidate = makeCandidate({
      source,
      id: custom.id,
      priority: custom.priority ?? sourcePriority(config, "custom"),
      kind: custom.kind ?? "custom",
      path: custom.path ?? null,
      content: redacting ? redactEntry(text, custom.path ?? `${source}:${custom.id}`, warnings) : text,
      countTokens,
    });
    setStatus(candidate, "included", custom.reason ?? (source === "custom" ? "custom entry from the config" : `registered by ${source}`));
    drafts.push({ candidate, sortKey: [SOURCES.indexOf("custom"), index] });
  });

  for (const name of requested) {
    if (!requestedFound.has(name)) warnings.push({ message: `--rule ${name}: no rule has that name` });
  }

  scoreAgentRequested(drafts, input, targets);

  const knownToAgent: Candidate[] = [];
  for (const draft of drafts) {
    const { candidate } = draft;
    if (candidate.content.length > MAX_ENTRY_CHARS) {
      capEntry(candidate, countTokens);
      warnings.push({ ...(candidate.path && { file: candidate.path }), message: `larger than ${MAX_ENTRY_CHARS} characters; capped (read the file for the rest)` });
    }
    if (candidate.status === "included" && isSourceDisabled(config, candidate.source)) {
      setStatus(candidate, "disabled", `source ${candidate.source} is disabled in the config`);
    }
    if (candidate.status === "included" && candidate.content === "") {
      setStatus(candidate, "invalid", "empty file");
      warnings.push({ ...(candidate.path !== null && { file: candidate.path }), message: "empty: nothing to inject" });
    }
    // What the agent already has — loaded natively, or injected earlier in the session — still counts for
    // deduplication: a copy of it elsewhere in the tree is a duplicate, not news.
    const excluded = candidate.status === "included" ? (input.exclude?.(candidate) ?? null) : null;
    if (excluded !== null) {
      setStatus(candidate, "disabled", excluded);
      knownToAgent.push(candidate);
    }
    if (candidate.status === "included" && candidate.source !== "keyword-detector" && input.alreadyInjected?.(candidate)) {
      setStatus(candidate, "already-injected", "injected earlier in this session and unchanged since");
      knownToAgent.push(candidate);
    }
  }

  drafts.sort((a, b) => compareKeys(a.sortKey, b.sortKey));
  const ordered = drafts.map((d) => d.candidate);
  markOverwritten(ordered);

  const collector = new ContextCollector();
  const session = "build";
  const byKey = new Map<string, Candidate>();
  for (const candidate of ordered) {
    if (candidate.status !== "included") continue;
    byKey.set(keyOf(candidate), candidate);
    collector.register(session, candidate);
  }
  const pending = collector.getPending(session);
  const realPathOf = new Map(files.map((f) => [f.path, f.realPath ?? f.path]));
  for (const { entry, keptAs } of pending.duplicates) {
    const kept = byKey.get(keptAs)!;
    const dup = byKey.get(keyOf(entry))!;
    const sameFile = dup.path !== null && kept.path !== null && realPathOf.get(dup.path) === realPathOf.get(kept.path);
    setStatus(dup, "duplicate", `${sameFile ? "same file as" : "same content as"} ${kept.path ?? kept.id}`);
  }

  const finalOrder = ordered
    .map((candidate, index) => ({ candidate, index }))
    .sort((a, b) => rank(a.candidate.priority) - rank(b.candidate.priority) || a.index - b.index)
    .map((x) => x.candidate);

  const known = new Map<string, Candidate>();
  for (const c of knownToAgent) if (!known.has(c.content.trim())) known.set(c.content.trim(), c);
  const entries: Entry[] = [];
  for (const e of pending.entries) {
    const candidate = byKey.get(keyOf(e))!;
    const twin = known.get(e.content.trim());
    if (twin) setStatus(candidate, "duplicate", `same content as ${twin.path ?? twin.id} (${twin.status === "already-injected" ? "already injected" : twin.reason})`);
    else entries.push(toEntry(candidate));
  }
  const omitted: Omitted[] = finalOrder.filter((c) => c.status === "below-threshold" || c.status === "over-budget").map(toOmitted);

  return { targets, candidates: finalOrder, entries, omitted, warnings };
}

interface DecideContext {
  targets: string[];
  targetDirs: string[];
  all: boolean;
  requested: Set<string>;
  /** `@name` mentions in the prompt. */
  mentioned: Set<string>;
  requestedFound: Set<string>;
  present: Set<string>;
  config: Config;
}

function draftFor(file: SourceFile, location: Location, ctx: DecideContext, warnings: Warning[], countTokens: CountTokens): Draft {
  if (location.source === "rules-injector") {
    const rule = parseRule(file, location.format, location.anchor);
    warnings.push(...rule.warnings);
    const candidate = makeCandidate({
      source: location.source,
      id: file.path,
      priority: rule.priority ?? sourcePriority(ctx.config, location.source),
      kind: rule.kind,
      path: file.path,
      content: rule.body,
      description: rule.description,
      globs: rule.globs,
      countTokens,
    });
    const asked = ctx.requested.has(rule.name) || ctx.requested.has(file.path);
    if (asked) ctx.requestedFound.add(ctx.requested.has(rule.name) ? rule.name : file.path);
    const how = asked ? `--rule ${rule.name}` : ctx.mentioned.has(rule.name) ? `prompt mentions @${rule.name}` : null;
    decideRule(candidate, rule.kind, rule.alwaysReason, location.anchor, rule.name, how, ctx);
    return {
      candidate,
      sortKey: [SOURCES.indexOf("rules-injector"), depthOf(location.anchor), location.anchor, RULE_FORMATS.indexOf(location.format), file.path],
      relevance: { id: file.path, name: rule.name, description: rule.description ?? "", body: rule.body },
    };
  }

  const doc = parseFrontmatter(file.text, file.path);
  warnings.push(...doc.warnings);
  const candidate = makeCandidate({
    source: location.source,
    id: file.path,
    priority: sourcePriority(ctx.config, location.source),
    kind: "directory",
    path: file.path,
    content: doc.body.trim(),
    description: typeof doc.data.description === "string" ? doc.data.description : null,
    countTokens,
  });
  const dir = location.dir;
  if (location.source === "directory-agents" && !location.override) {
    const replacement = joinPath(dir, overrideName(location.name));
    if (ctx.present.has(replacement)) {
      setStatus(candidate, "overwritten", `replaced by ${replacement}`);
      return { candidate, sortKey: agentsKey(location, ctx, file.path) };
    }
  }
  if (location.source === "directory-agents" && dir === "" && ctx.config.agents.skipRoot) {
    setStatus(candidate, "disabled", "agents.skipRoot is set: the agent loads the root file itself");
  } else if (ctx.all) {
    setStatus(candidate, "included", "--all");
  } else {
    const target = dir === "" ? undefined : ctx.targets.find((t) => isWithin(dirOf(t), dir));
    if (dir === "") setStatus(candidate, "included", "project root");
    else if (target !== undefined) setStatus(candidate, "included", `on the path to ${target}`);
    else setStatus(candidate, "unmatched", `no target under ${dir}/`);
  }
  const sortKey =
    location.source === "directory-agents" ? agentsKey(location, ctx, file.path) : [SOURCES.indexOf(location.source), depthOf(dir), dir, 0, file.path];
  return { candidate, sortKey };
}

function agentsKey(location: Extract<Location, { source: "directory-agents" }>, ctx: DecideContext, path: string): Array<number | string> {
  return [SOURCES.indexOf("directory-agents"), depthOf(location.dir), location.dir, ctx.config.agents.files.indexOf(location.name), location.override ? 1 : 0, path];
}

function decideRule(
  candidate: Candidate,
  kind: Kind,
  alwaysReason: string | null,
  anchor: string,
  name: string,
  askedBy: string | null,
  ctx: DecideContext,
): void {
  if (ctx.all) {
    const globs = candidate.globs.length > 0 ? `: ${candidate.globs.join(", ")}` : "";
    setStatus(candidate, "included", `--all (${kind}${globs})`);
    return;
  }
  const onPath = anchor === "" || ctx.targetDirs.some((d) => isWithin(d, anchor));
  if (!onPath) {
    setStatus(candidate, "unmatched", `rules of ${anchor}/ apply only to files under it`);
    return;
  }
  if (askedBy !== null) {
    setStatus(candidate, "included", askedBy);
    return;
  }
  switch (kind) {
    case "always":
      setStatus(candidate, "included", alwaysReason ?? "always");
      return;
    case "auto": {
      const matcher: GlobMatcher = compileGlobs(candidate.globs, anchor);
      for (const target of ctx.targets) {
        const pattern = matcher(target);
        if (pattern !== null) {
          setStatus(candidate, "included", `glob ${pattern} matches ${target}`);
          return;
        }
      }
      const where = anchor === "" ? "" : ` (anchored at ${anchor}/)`;
      setStatus(
        candidate,
        "unmatched",
        ctx.targets.length === 0 ? `no target files given for ${candidate.globs.join(", ")}` : `no target matches ${candidate.globs.join(", ")}${where}`,
      );
      return;
    }
    case "agent-requested":
      // Scored against the prompt and targets once every rule is known (scoreAgentRequested).
      setStatus(candidate, "below-threshold", "description only: no prompt or target to score it against");
      return;
    default:
      setStatus(candidate, "manual", `include with --rule ${name} or @${name} in the prompt`);
  }
}

function redactFile(file: SourceFile, warnings: Warning[]): SourceFile {
  const text = redactEntry(file.text, file.path, warnings);
  return text === file.text ? file : { ...file, text };
}

function redactEntry(content: string, where: string, warnings: Warning[]): string {
  const { text, redactions } = redactSecrets(content);
  for (const r of redactions) warnings.push({ file: where, line: r.line, message: `redacted a ${r.kind} (config redact: false keeps it)` });
  return text;
}

/** One entry's ceiling before any budget: a multi-megabyte README must not crowd out everything else. */
export const MAX_ENTRY_CHARS = 100_000;

function capEntry(candidate: Candidate, countTokens: CountTokens): void {
  const text = candidate.content;
  let at = cutAtOrBefore(text, MAX_ENTRY_CHARS) ?? text.lastIndexOf("\n", MAX_ENTRY_CHARS);
  if (at <= 0) at = MAX_ENTRY_CHARS - (/[\uD800-\uDBFF]/.test(text[MAX_ENTRY_CHARS - 1] ?? "") ? 1 : 0);
  const where = candidate.path ? `: read ${candidate.path} for the rest` : "";
  candidate.content = `${text.slice(0, at).trimEnd()}\n\n[… capped at ${MAX_ENTRY_CHARS} characters${where}]`;
  candidate.tokens = countTokens(candidate.content);
  candidate.truncated = true;
}

/**
 * Agent-requested rules on the targets' paths are scored together (BM25 needs the whole set) against the
 * prompt plus the targets' path words; those at or above the threshold are included.
 */
function scoreAgentRequested(drafts: Draft[], input: SelectInput, targets: string[]): void {
  const pending = drafts.filter((d) => d.candidate.kind === "agent-requested" && d.candidate.status === "below-threshold" && d.relevance);
  const query = [input.prompt ?? "", ...targets].join("\n");
  if (pending.length === 0 || query.trim() === "") return;
  const threshold = input.minRelevance ?? input.config.minRelevance ?? DEFAULT_MIN_RELEVANCE;
  const scores = scoreRelevance(query, pending.map((d) => d.relevance!), input.stem ?? ((w) => w));
  pending.forEach(({ candidate }, i) => {
    const { score, matched } = scores[i]!;
    const words = matched.length > 0 ? ` (${matched.slice(0, 6).join(", ")})` : "";
    if (score >= threshold) setStatus(candidate, "included", `relevance ${score.toFixed(2)} >= ${threshold}${words}`);
    else setStatus(candidate, "below-threshold", `relevance ${score.toFixed(2)} < ${threshold}${words}`);
  });
}

/** Earlier registrations of the same source:id lose to the later one, as in the collector. */
function markOverwritten(ordered: Candidate[]): void {
  const last = new Map<string, Candidate>();
  for (const candidate of ordered) {
    if (candidate.status !== "included") continue;
    const key = keyOf(candidate);
    const previous = last.get(key);
    if (previous) setStatus(previous, "overwritten", `overwritten by a later ${key}`);
    last.set(key, candidate);
  }
}

type CandidateFields = Pick<Candidate, "source" | "id" | "priority" | "kind" | "path" | "content"> &
  Partial<Pick<Candidate, "description" | "globs">> & { countTokens: CountTokens };

function makeCandidate({ countTokens, ...fields }: CandidateFields): Candidate {
  return { description: null, globs: [], ...fields, tokens: countTokens(fields.content), status: "included", reason: "", truncated: false };
}

function setStatus(candidate: Candidate, status: Status, reason: string): void {
  candidate.status = status;
  candidate.reason = reason;
}

function sourcePriority(config: Config, source: SourceName): Priority {
  return config.sources[source]?.priority ?? DEFAULT_PRIORITY[source];
}

function isSourceDisabled(config: Config, source: string): boolean {
  return config.sources[source as SourceName]?.enabled === false;
}

function toEntry({ description: _description, status: _status, reason: _reason, ...entry }: Candidate): Entry {
  return entry;
}

function toOmitted(c: Candidate): Omitted {
  return { source: c.source, id: c.id, priority: c.priority, path: c.path, description: c.description, tokens: c.tokens, reason: c.reason };
}

/** Code-unit order: the same on every machine, whatever the locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareKeys(a: Array<number | string>, b: Array<number | string>): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (typeof x === "number" && typeof y === "number") return x - y;
    return compareText(String(x), String(y));
  }
  return 0;
}
