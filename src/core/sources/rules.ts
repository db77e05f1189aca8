/** Rule files (rules-injector): one parser, each agent's activation semantics given by its module. */
import { parseFrontmatter, type ParsedDocument } from "../parse/frontmatter.js";
import { compileGlobs, matchesEverything, readGlobList } from "../parse/globs.js";
import { expandImports } from "../parse/imports.js";
import type { RunMemo } from "../run-memo.js";
import type { GateOptions } from "../text-gate.js";
import { baseName, isWithin, trimSlashes, withoutSuffix } from "../rel-path.js";
import { GLOB_FIELDS, PRIORITIES, type Candidate, type Kind, type Priority, type SourceFile, type Warning, type WarningKind } from "../types.js";
import { isMdOrMdc } from "./locate.js";
import { importSyntaxOf, makeCandidate, modulePriority, setStatus, type DraftContext, type FileSpec, type LocateOptions, type SourceModule } from "./source.js";

/** What an agent's frontmatter says about when its rule applies, read by the rule's module. */
export interface Activation {
  kind: Kind;
  /** Why an always rule is always (shown by explain). */
  reason?: string;
  globs?: string[];
}

interface RuleSemantics {
  /** Frontmatter fields holding globs; default `globs`, `paths`, `applyTo`. */
  globFields?: string[];
  /**
   * The agent's own reading of the frontmatter, tried first (Windsurf's `trigger`, Kiro's `inclusion`); null
   * falls through to the common reading (alwaysApply, globs, description, else manual).
   */
  activation?: (doc: ParsedDocument, read: FieldReader) => Activation | null;
  /** Every file of this kind applies always, for this reason (copilot-instructions.md, .cursorrules). */
  always?: string;
  /** A file with no globs applies always, for this reason (`.claude/rules` without `paths`). */
  alwaysWithoutGlobs?: string;
}

/** Helpers an activation reads fields with; problems become warnings naming the file and line. */
export interface FieldReader {
  globs(fields: string[]): string[];
  warn(message: string, key?: string): void;
}

/** An activation that needs globs: auto with them, manual (with a warning naming `what`) without. */
export function globsOrManual(read: FieldReader, fields: string[], what: string, key: string): Activation {
  const globs = read.globs(fields);
  if (globs.length > 0) return { kind: "auto", globs };
  read.warn(`"${what}" without "${fields.join('" or "')}": the rule never applies; read as manual`, key);
  return { kind: "manual" };
}

/** An activation left to the agent: agent-requested with a description, manual (with a warning) without. */
export function describedOrManual(doc: ParsedDocument, read: FieldReader, what: string, key: string): Activation {
  if (typeof doc.data.description === "string" && doc.data.description.trim() !== "") return { kind: "agent-requested" };
  read.warn(`"${what}" without a "description": nothing to decide on; read as manual`, key);
  return { kind: "manual" };
}

interface RuleDoc {
  path: string;
  /** Name used by `--rule NAME` and `@NAME`: the file name without its rule extension. */
  name: string;
  anchor: string;
  kind: Kind;
  /** Why an always rule is always (shown by explain). */
  alwaysReason: string | null;
  globs: string[];
  description: string | null;
  priority: Priority | null;
  body: string;
  warnings: Warning[];
  /** Copilot's `excludeAgent` (a name or a list): read for `--as copilot`, ignored otherwise. */
  excludeAgent: string[];
  /** The frontmatter line of the first glob field, for warnings about its globs. */
  globsLine?: number;
  /** `when_to_use`, and the author's `keywords:` / `aliases:`: more fields for relevance (any format). */
  whenToUse: string;
  aliases: string[];
}

export function ruleName(path: string): string {
  const name = withoutSuffix(baseName(path), RULE_SUFFIXES);
  return name.startsWith(".") ? name.slice(1) : name;
}

// String checks, not a regular expression: V8 compiles each regexp on its first use (and again on its second), on
// every run, and a hook's run uses dozens; the simple ones cost more to compile than to replace.
const RULE_SUFFIXES = [".instructions.md", ".mdc", ".md"];

export function parseRule(file: SourceFile, semantics: RuleSemantics, anchor: string, memo?: RunMemo, gate?: GateOptions): RuleDoc {
  const doc = parseFrontmatter(file.text, file.path, memo, gate);
  const warnings = [...doc.warnings];
  const data = doc.data;
  const warn = (message: string, key?: string, kind?: WarningKind) => {
    const line = key !== undefined ? doc.lineOf(key) : undefined;
    warnings.push({ file: file.path, ...(line !== undefined && { line }), message, ...(kind !== undefined && { kind }) });
  };

  let globsLine: number | undefined;
  const readGlobs = (fields: string[]) => {
    const out: string[] = [];
    // Made only once a second pattern comes (most rules have one).
    let had: Set<string> | undefined;
    for (const field of fields) {
      if (data[field] === undefined) continue;
      globsLine ??= doc.lineOf(field);
      const list = readGlobList(data[field]);
      if (list.problem) warn(`"${field}": ${list.problem}; the field is ignored`, field, GLOB_FIELDS.has(field) ? "bad-glob-field" : undefined);
      // `globs`, `paths` and `applyTo` mean the same: a pattern written in two of them is one pattern.
      for (const pattern of list.patterns) {
        if (out.length > 0) {
          had ??= new Set(out);
          if (had.has(pattern)) continue;
          had.add(pattern);
        }
        out.push(pattern);
      }
    }
    return out;
  };
  const description = typeof data.description === "string" && data.description.trim() !== "" ? data.description.trim() : null;
  const priority = readPriority(data.priority, (m) => warn(m, "priority"));

  const own = semantics.activation?.(doc, { globs: readGlobs, warn }) ?? null;
  let kind: Kind;
  let alwaysReason: string | null = null;
  let globs: string[];
  if (own !== null) {
    kind = own.kind;
    alwaysReason = own.reason ?? null;
    globs = own.globs ?? [];
  } else {
    globs = readGlobs(semantics.globFields ?? ["globs", "paths", "applyTo"]);
    const alwaysApply = readAlwaysApply(data.alwaysApply, (m, kind) => warn(m, "alwaysApply", kind));
    if (semantics.always !== undefined) [kind, alwaysReason] = ["always", semantics.always];
    else if (alwaysApply) [kind, alwaysReason] = ["always", "alwaysApply: true"];
    else if (globs.length > 0) kind = "auto";
    else if (semantics.alwaysWithoutGlobs !== undefined) [kind, alwaysReason] = ["always", semantics.alwaysWithoutGlobs];
    else if (description) kind = "agent-requested";
    else kind = "manual";
  }
  if (kind === "auto" && globs.length > 0 && matchesEverything(globs)) [kind, alwaysReason] = ["always", `glob ${globs.join(", ")} matches every file`];

  const exclude = data.excludeAgent;
  const excludeAgent = typeof exclude === "string" ? [exclude] : Array.isArray(exclude) ? exclude.filter((x): x is string => typeof x === "string") : [];
  const { whenToUse, aliases } = relevanceFields(data);
  // Field by field, no spread: one literal shape for every rule of --all's thousands (a spread takes V8's slow path).
  const rule: RuleDoc = {
    path: file.path,
    name: ruleName(file.path),
    anchor,
    kind,
    alwaysReason,
    globs,
    description,
    priority,
    body: doc.body.trim(),
    warnings,
    excludeAgent,
    whenToUse,
    aliases,
  };
  if (globsLine !== undefined) rule.globsLine = globsLine;
  return rule;
}

/**
 * The frontmatter a relevance scorer reads beside the description, whatever the format: `when_to_use` (Claude Code
 * skills; `whenToUse` too) and the author's own words for the topic, `keywords:` and `aliases:`, each a list or a
 * comma-separated line. Anything else there is not text and is ignored.
 */
export function relevanceFields(data: Record<string, unknown>): { whenToUse: string; aliases: string[] } {
  const when = data.when_to_use ?? data.whenToUse;
  const aliases: string[] = [];
  for (const field of ["keywords", "aliases"]) {
    const value = data[field];
    if (typeof value === "string")
      aliases.push(
        ...value
          .split(",")
          .map((a) => a.trim())
          .filter((a) => a !== ""),
      );
    else if (Array.isArray(value)) for (const a of value) if (typeof a === "string" && a.trim() !== "") aliases.push(a.trim());
  }
  return { whenToUse: typeof when === "string" ? when.trim() : "", aliases };
}

interface RuleModuleSpec extends RuleSemantics {
  name: string;
  files: (options: LocateOptions) => FileSpec;
}

/** A rules-injector module for one agent's rule files. */
export function ruleModule(spec: RuleModuleSpec): SourceModule {
  const module: SourceModule = {
    name: spec.name,
    source: "rules-injector",
    files: spec.files,
    draft: (ctx, located) =>
      located.map(({ file, anchor }) => {
        const rule = parseRule(file, spec, anchor, ctx.memo, ctx.gate);
        rule.warnings.forEach(ctx.warn);
        // Kiro's `#[[file:path]]` references, expanded as Kiro does (the same limits as `@imports`).
        const syntax = importSyntaxOf(module);
        const expanded =
          syntax === null
            ? null
            : expandImports(
                rule.body,
                file.path,
                ctx.files,
                (f) => parseFrontmatter(f.text, f.path, ctx.memo).body,
                (w) => ctx.warn(inFile(w, file.text, rule.body)),
                [file.path],
                syntax,
              );
        const candidate = makeCandidate({
          source: module.source,
          id: file.path,
          priority: rule.priority ?? modulePriority(ctx.config, module),
          kind: rule.kind,
          path: file.path,
          content: expanded ? expanded.text.trim() : rule.body,
          description: rule.description,
          globs: rule.globs,
          countTokens: ctx.countTokens,
        });
        if (rule.excludeAgent.length > 0) candidate.excludeAgent = rule.excludeAgent;
        if (expanded && expanded.imports.length > 0) candidate.imports = expanded.imports;
        decideRule(candidate, rule, ctx);
        return {
          candidate,
          key: { folder: anchor, rank: 0, path: file.path },
          relevance: { id: file.path, name: rule.name, description: rule.description ?? "", body: rule.body, whenToUse: rule.whenToUse, aliases: rule.aliases },
        };
      }),
  };
  return module;
}

/** A warning about a line of a rule's body, moved to that line of its file (past the frontmatter). */
function inFile(warning: Warning, text: string, body: string): Warning {
  if (warning.line === undefined || warning.file === undefined) return warning;
  const at = text.replace(/\r\n/g, "\n").indexOf(body);
  if (at <= 0) return warning;
  let before = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) before++;
  return { file: warning.file, line: warning.line + before, message: warning.message, ...(warning.kind !== undefined && { kind: warning.kind }) };
}

/** A rule's (or skill's) first status: its folder, --all, --rule / @mention, then its kind. */
export function decideRule(
  candidate: Candidate,
  rule: Pick<RuleDoc, "anchor" | "name" | "kind" | "path" | "alwaysReason" | "globsLine">,
  ctx: DraftContext,
): void {
  const { anchor, name, kind } = rule;
  const asked = ctx.requested.has(name) || ctx.requested.has(rule.path);
  if (asked) ctx.requestedFound.add(ctx.requested.has(name) ? name : rule.path);
  if (ctx.all) {
    const globs = candidate.globs.length > 0 ? `: ${candidate.globs.join(", ")}` : "";
    setStatus(candidate, "included", `--all (${kind}${globs})`);
    return;
  }
  if (!(anchor === "" || ctx.targetDirs.some((d) => isWithin(d, anchor)))) {
    setStatus(candidate, "unmatched", `rules of ${anchor}/ apply only to files under it`);
    return;
  }
  const askedBy = asked ? `--rule ${name}` : ctx.mentioned.has(name) ? `prompt mentions @${name}` : null;
  if (askedBy !== null) {
    setStatus(candidate, "included", askedBy);
    return;
  }
  switch (kind) {
    case "always":
      setStatus(candidate, "included", rule.alwaysReason ?? "always");
      return;
    case "auto": {
      const matcher = compileGlobs(candidate.globs, anchor, {
        ...(ctx.linear !== undefined && { linear: ctx.linear }),
        memo: ctx.memo,
        refused: (pattern, reason) =>
          ctx.warn({
            file: rule.path,
            ...(rule.globsLine !== undefined && { line: rule.globsLine }),
            message: `the glob ${JSON.stringify(pattern)} is not matched: ${reason}`,
          }),
      });
      for (const target of ctx.targets) {
        const pattern = matcher(target);
        if (pattern !== null) {
          setStatus(candidate, "included", `glob ${pattern} matches ${target}`);
          return;
        }
      }
      const where = anchor === "" ? "" : ` (anchored at ${anchor}/)`;
      const globs = candidate.globs.join(", ");
      const unmatched = ctx.targets.length === 0 ? `no target files given for ${globs}` : `no target matches ${globs}${where}`;
      // Its description is evidence too: where its globs do not decide, it is weighed as a description-only rule is.
      if (candidate.description !== null && candidate.description.trim() !== "") {
        candidate.byDescription = true;
        setStatus(candidate, "below-threshold", `${unmatched}; weighed by its description`);
        return;
      }
      setStatus(candidate, "unmatched", unmatched);
      return;
    }
    case "agent-requested":
      // Scored against the prompt and targets once every rule is known (the score phase).
      setStatus(candidate, "below-threshold", "description only: no prompt or target to score it against");
      return;
    default:
      setStatus(candidate, "manual", `include with --rule ${name} or @${name} in the prompt`);
  }
}

function readAlwaysApply(value: unknown, warn: (m: string, kind?: WarningKind) => void): boolean {
  if (value === undefined || value === null || typeof value === "boolean") return value === true;
  if (typeof value === "string" && /^(true|false)$/i.test(value.trim())) {
    const on = value.trim().toLowerCase() === "true";
    if (on)
      warn(`"alwaysApply" is the string "${value}"; read as true here, but Cursor treats a string as false — write alwaysApply: true`, "always-apply-string");
    return on;
  }
  warn(`"alwaysApply": expected true or false, got ${JSON.stringify(value)}; read as false`);
  return false;
}

function readPriority(value: unknown, warn: (m: string) => void): Priority | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "string" && (PRIORITIES as readonly string[]).includes(value.trim().toLowerCase())) {
    return value.trim().toLowerCase() as Priority;
  }
  warn(`"priority": expected one of ${PRIORITIES.join(", ")}, got ${JSON.stringify(value)}; the source's default is used`);
  return null;
}

export const only = (spec: Partial<FileSpec>) => (): FileSpec => ({ folders: [], names: [], ...spec });

/** The rule formats of the first round, in their registration order within one folder. */
export const cursorRules = ruleModule({ name: "cursor", files: only({ folders: [".cursor/rules"], accepts: isMdOrMdc }) });
export const claudeRules = ruleModule({
  name: "claude-rules",
  files: only({ folders: [".claude/rules"], accepts: (n) => n.endsWith(".md") }),
  alwaysWithoutGlobs: ".claude/rules file without paths",
});
export const kordRules = ruleModule({ name: "kord", files: only({ folders: ["docs/kord/rules"], accepts: isMdOrMdc }) });
export const copilotInstructions = ruleModule({
  name: "copilot-instructions",
  files: only({ folders: [".github/instructions"], accepts: (n) => n.endsWith(".instructions.md") }),
});
/** Config `rules.dirs`: folders read like `.cursor/rules`. */
export const configuredRules = ruleModule({
  name: "rules-dirs",
  files: (options) => ({ folders: options.ruleDirs.map(trimSlashes), names: [], accepts: isMdOrMdc }),
});
export const copilotFile = ruleModule({
  name: "copilot",
  files: only({ names: [".github/copilot-instructions.md"] }),
  always: "copilot-instructions.md always applies",
});
export const cursorrulesFile = ruleModule({ name: "cursorrules", files: only({ names: [".cursorrules"] }), always: "legacy .cursorrules always applies" });
