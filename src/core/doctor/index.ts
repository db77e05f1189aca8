/**
 * `ctxinject doctor`, the pure part: every instruction file of the tree and every file git tracks in, the findings
 * out — what silently goes wrong, for which agent, where. The selection `build --all` makes is the trace it reads
 * (parse warnings, duplicates, kinds and globs); the rest are checks of their own.
 */
import type { LinearEngine } from "../linear-regexp.js";
import { codexChain, codexNames, CODEX_BUDGET_BYTES } from "../agents/codex.js";
import type { AgentProfile, AgentSettings } from "../agents/profile.js";
import type { Config } from "../config.js";
import { parseFrontmatter } from "../parse/frontmatter.js";
import { globBounds } from "../coverage/glob-bounds.js";
import { compileGlobs, readGlobList, type GlobMatcher } from "../parse/globs.js";
import { flattenImports, importTokens, resolveImport } from "../parse/imports.js";
import { lineCounter } from "../line-counter.js";
import { ancestorsOf, baseName, dirOf, joinPath, rangeUnder, type PathRange } from "../rel-path.js";
import type { Selection } from "../select.js";
import { locateOptionsOf, sourceLocator } from "../sources/index.js";
import { approxTokens, utf8Bytes } from "../tokens.js";
import type { Candidate, SourceFile, Warning } from "../types.js";
import { oneFilePerRealPath } from "../same-file.js";
import { PATTERN_REDACTIONS } from "../redact.js";
import { placementChecks } from "./placement.js";
import { createRunMemo, type RunMemo } from "../run-memo.js";
import { sortFindings, type Finding } from "./finding.js";
import { fileReaders, tagOf } from "./readers.js";
import { textChecks } from "./text-checks.js";
import { driftChecks } from "./drift-checks.js";
import { neverMatchingChecks } from "./never-matching.js";
import { commentChecks, gateFindings, keywordChecks, nameChecks } from "./gate-checks.js";

export { atLeast, SEVERITIES, type Finding, type Severity } from "./finding.js";

export interface DoctorInput {
  /** Every instruction file of the tree (root-relative paths). */
  files: SourceFile[];
  /** The selection `build --all` makes of them: parse warnings, duplicates, kinds and globs. */
  selection: Selection;
  /** Every file git tracks (or the tree holds, outside git), root-relative, sorted: what globs are meant to match. */
  tracked: string[];
  config: Config;
  /** Whether a root-relative path is a file (imports may name files that are no instruction file). */
  exists(path: string): boolean;
  /** Whether a root-relative path is a folder, through a link (a tracked `.cursor/rules` symlink to a rules folder). */
  isFolder?(path: string): boolean;
  /** Codex's own settings (fallback names, budget), where the user has set them. */
  codex?: AgentSettings;
  /** Runs the globs too rich for a backtracking regexp (core/parse/glob-limits.ts); without it they match nothing. */
  linear?: LinearEngine;
  /**
   * Every agent as its own settings have it (io/trees/doctor-tree.ts makes them from src/hosts' list, which core does not
   * import): which of them read a file.
   */
  profiles: readonly AgentProfile[];
  /** The run's memo (core/run-memo.ts), the selection's: located paths and compiled globs reused; a fresh one without. */
  memo?: RunMemo;
  /** The config file that set each keyword mode's `content` (user or repository), for findings about the texts. */
  keywordFiles?: Readonly<Record<string, string>>;
  /**
   * Findings about this machine rather than the tree (the hooks init installed, io/host-setup/hook-command-check.ts):
   * they quote settings files' commands, so they pass the same gate and sort as the tree's.
   */
  machine?: readonly Finding[];
}

export function diagnose(input: DoctorInput): Finding[] {
  const { files, config } = input;
  const memo = input.memo ?? createRunMemo();
  const locateSource = sourceLocator(locateOptionsOf(config), memo);
  const selection = input.selection;
  const findings: Finding[] = [];
  // A finding names the agents that read its file by themselves (readers.ts), `ctxinject` when none does.
  const readers = fileReaders(selection.candidates, input.profiles, (path) => locateSource(path)?.module.name);
  const agentOf = (path: string) => tagOf(readers(path));
  const isRule = (path: string) => locateSource(path)?.module.source === "rules-injector";

  // A file reached through several paths (a symlink) is checked once, under the name build gives it.
  const tested = memo.get(PATTERN_REDACTIONS);
  const { kept, aliasesOf } = oneFilePerRealPath([...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)));
  for (const file of kept) {
    // The tag only words a finding: asked (every agent's loader) for the few files with one, not for 4,000 rules.
    let known: string | undefined;
    const tag = () => (known ??= agentOf(file.path));
    findings.push(...textChecks(file, isRule(file.path), tag, tested), ...commentChecks(file, tag));
  }
  findings.push(...nameChecks(kept, agentOf), ...keywordChecks(config, input.keywordFiles ?? {}));
  for (const [path, aliases] of aliasesOf)
    findings.push({
      severity: "info",
      kind: "same-file",
      agent: agentOf(path),
      file: path,
      message: `also reached as ${aliases.join(", ")} (a symlink): one file, read and injected once under this name`,
    });
  for (const warning of selection.warnings) {
    const finding = fromWarning(warning, agentOf);
    if (finding) findings.push(finding);
  }
  for (const file of kept) if (isRule(file.path)) findings.push(...frontmatterChecks(file, locateSource(file.path)!.module.name, memo));
  // A file kept under another agent's name (`.claude/rules` and `.cursor/rules` both links to one folder) is
  // Cursor's too, under the name it reads it by.
  for (const [path, aliases] of aliasesOf) {
    if (locateSource(path)?.module.name === "cursor") continue;
    const asCursor = aliases.find((alias) => alias.endsWith(".md") && locateSource(alias)?.module.name === "cursor");
    if (asCursor !== undefined) findings.push(cursorMdRule(path, asCursor));
  }
  const textOf = new Map(files.map((f) => [f.path, f.text]));
  findings.push(...globChecks(selection.candidates, input.tracked, (path) => locateSource(path)?.anchor ?? "", agentOf, memo, input.linear, textOf));
  findings.push(...duplicateChecks(selection.candidates, readers, agentOf));
  findings.push(...driftChecks(selection.candidates, readers, agentOf));
  findings.push(...neverMatchingChecks(selection.candidates, new Map(kept.map((f) => [f.path, f])), agentOf, memo));
  findings.push(...importChecks(files, (path) => locateSource(path)?.module.source === "directory-agents", input.exists));
  findings.push(...codexChecks(files, input.codex));
  findings.push(...chainChecks(files, selection.candidates, config.doctor.maxChainTokens, agentOf));
  findings.push(
    ...placementChecks({
      tracked: input.tracked,
      isFolder: input.isFolder ?? (() => false),
      readThroughLinks: new Set(files.flatMap((f) => (f.realPath !== undefined && f.realPath !== f.path ? [f.realPath] : []))),
      // The first word of each agent's name (claude-code → claude, cursor-agent → cursor).
      agentWords: [...new Set(input.profiles.map((p) => p.name.split("-")[0]!))],
    }),
  );
  findings.push(...(input.machine ?? []));
  return sortFindings(gateFindings(findings));
}

/** The parse warnings that are findings, by the kind their maker gave them. */
function fromWarning(w: Warning, agentOf: (path: string) => string): Finding | null {
  if (w.file === undefined || w.file.includes(":") || w.kind === undefined) return null;
  const at = { file: w.file, ...(w.line !== undefined && { line: w.line }) };
  const m = w.message;
  switch (w.kind) {
    case "frontmatter-unclosed":
      return {
        severity: "warning",
        kind: w.kind,
        agent: agentOf(w.file),
        ...at,
        message: "frontmatter opened with --- is never closed: every agent reads the whole file as text, its fields as words",
      };
    case "unquoted-glob":
      return {
        severity: "warning",
        kind: w.kind,
        agent: agentOf(w.file),
        ...at,
        message: "an unquoted value starting with * is a YAML alias: agents that read frontmatter as YAML lose the field (Cursor reads it; quote it)",
      };
    case "always-apply-string":
      return { severity: "error", kind: w.kind, agent: "cursor", ...at, message: m };
    case "hidden-characters":
      return { severity: "error", kind: w.kind, agent: agentOf(w.file), ...at, message: `${m}: text a reviewer cannot see, which a model reads` };
    case "secret":
      // What a field's escapes spell: a credential as the text gate finds one, whatever spells it.
      return { severity: "error", kind: w.kind, agent: agentOf(w.file), ...at, message: `${m}: an agent that loads the file sends it to its model provider` };
    case "import-depth":
      return { severity: "warning", kind: w.kind, agent: "claude-code", ...at, message: m };
    case "frontmatter-yaml":
    case "import-cycle":
    case "bad-glob-field":
      return { severity: "warning", kind: w.kind, agent: agentOf(w.file), ...at, message: m };
  }
}

function frontmatterChecks(file: SourceFile, module: string, memo: RunMemo): Finding[] {
  const findings: Finding[] = [];
  const doc = parseFrontmatter(file.text, file.path, memo);
  const has = (key: string) => doc.data[key] !== undefined && doc.data[key] !== null && doc.data[key] !== "";
  if (module === "claude-rules" && has("globs") && !has("paths")) {
    findings.push({
      severity: "warning",
      kind: "claude-rules-globs",
      agent: "claude-code",
      file: file.path,
      line: doc.lineOf("globs") ?? 1,
      message: '"globs" without "paths": Claude Code reads only "paths", so it loads this rule for every file, unconditionally',
    });
  }
  if (module === "cursor" && file.path.endsWith(".md")) findings.push(cursorMdRule(file.path));
  return findings;
}

/** A `.md` rule Cursor finds in a `.cursor/rules` folder (`via`: the name it finds it by, through a link). */
function cursorMdRule(path: string, via?: string): Finding {
  const where = via === undefined ? "a .md file in .cursor/rules" : `a .md file Cursor finds as ${via} (through a link)`;
  return {
    severity: "warning",
    kind: "cursor-md-rule",
    agent: "cursor",
    file: path,
    message: `${where}: Cursor's rules are .mdc files, and versions differ on whether they read .md (rename it to .mdc)`,
  };
}

/**
 * A pattern that matches no tracked file is a dead rule; a rule whose patterns match every tracked file below its
 * folder applies always (fine, but then say so: alwaysApply, or no globs).
 */
function globChecks(
  candidates: Candidate[],
  tracked: string[],
  anchorOf: (path: string) => string,
  agentOf: (path: string) => string,
  memo: RunMemo,
  linear: LinearEngine | undefined,
  textOf: ReadonlyMap<string, string>,
): Finding[] {
  const options = linear !== undefined ? { linear, memo } : { memo };
  const findings: Finding[] = [];
  // The files below a rule's folder are a range of `tracked`, found once per folder: a package's rules share it, and
  // no list is copied per rule (a slice per rule: diagnose took 69 ms instead of 55 on a 100k-file tree).
  const ranges = new Map<string, PathRange>();
  for (const c of candidates) {
    if (c.path === null || c.source !== "rules-injector" || c.globs.length === 0) continue;
    const anchor = anchorOf(c.path);
    let under = ranges.get(anchor);
    if (under === undefined) ranges.set(anchor, (under = rangeUnder(tracked, anchor)));
    const where = anchor === "" ? "the repository" : `${anchor}/`;
    // A rule of one pattern (most are) is matched as a whole by that pattern's matcher: compiled once, not twice.
    let whole: GlobMatcher | undefined;
    for (const pattern of c.globs) {
      if (pattern.startsWith("!")) continue;
      const matches = compileGlobs([pattern], anchor, options);
      if (c.globs.length === 1) whole = matches;
      if (!anyWithin(tracked, under, anchor, pattern, matches)) {
        const line = globLine(textOf.get(c.path), c.path, pattern, memo);
        findings.push({
          severity: "warning",
          kind: "dead-glob",
          agent: agentOf(c.path),
          file: c.path,
          ...(line !== undefined && { line }),
          message: `the pattern ${JSON.stringify(pattern)} matches no file git tracks in ${where}: the rule never applies through it`,
        });
      }
    }
    if (under.end - under.start > 1 && c.kind === "auto" && everyMatches(tracked, under, whole ?? compileGlobs(c.globs, anchor, options))) {
      findings.push({
        severity: "info",
        kind: "glob-matches-everything",
        agent: agentOf(c.path),
        file: c.path,
        message: `its patterns (${c.globs.join(", ")}) match every file git tracks in ${where}: it is really an always rule`,
      });
    }
  }
  return findings;
}

/**
 * The frontmatter line of the first field that holds `pattern` (whatever the format calls it: globs, paths, applyTo,
 * fileMatchPattern…), for a finding's line: SARIF results and GitHub annotations point at it. Asked for dead
 * patterns only (few), so the frontmatter is read again rather than kept for every rule.
 */
function globLine(text: string | undefined, path: string, pattern: string, memo: RunMemo): number | undefined {
  if (text === undefined) return undefined;
  const doc = parseFrontmatter(text, path, memo);
  for (const [field, value] of Object.entries(doc.data)) if (readGlobList(value).patterns.includes(pattern)) return doc.lineOf(field);
  return undefined;
}

/** Whether every file of the range `under` of `tracked` matches (a loop: a closure per rule was most of the check's own time). */
function everyMatches(tracked: readonly string[], under: PathRange, all: GlobMatcher): boolean {
  for (let i = under.start; i < under.end; i++) if (all(tracked[i]!) === null) return false;
  return true;
}

/**
 * Whether a file of `under` (sorted, below `anchor`) matches one pattern: only the files within its literal bounds
 * (core/coverage/glob-bounds.ts) are matched, found by a binary search for where they start. Scanning every file
 * below each rule's folder until one matched was half of doctor's time on a 100k-file tree (coverage runs it too).
 */
function anyWithin(tracked: readonly string[], under: PathRange, anchor: string, pattern: string, matches: GlobMatcher): boolean {
  // No bound: the pattern is empty once normalized, and compileGlobs leaves it out (it matches nothing).
  const bound = globBounds([pattern])[0];
  if (bound === undefined) return false;
  const from = anchor === "" ? bound.start : `${anchor}/${bound.start}`;
  let i = under.start;
  for (let hi = under.end; i < hi; ) {
    const mid = (i + hi) >> 1;
    if (tracked[mid]! < from) i = mid + 1;
    else hi = mid;
  }
  for (; i < under.end && tracked[i]!.startsWith(from); i++) {
    if (tracked[i]!.endsWith(bound.end) && matches(tracked[i]!) !== null) return true;
  }
  return false;
}

/**
 * The same text in two files (not one file reached twice through a symlink). A warning where one agent reads both
 * and gets the text twice; information where each is another agent's (a rule kept for two agents, as intended).
 */
function duplicateChecks(candidates: Candidate[], readersOf: (path: string) => string[], agentOf: (path: string) => string): Finding[] {
  const findings: Finding[] = [];
  for (const c of candidates) {
    if (c.status !== "duplicate" || c.path === null || !c.reason.startsWith("same content as ")) continue;
    const other = c.reason.slice("same content as ".length).split(" (")[0]!;
    const both = readersOf(c.path).filter((agent) => readersOf(other).includes(agent));
    findings.push(
      both.length > 0
        ? {
            severity: "warning",
            kind: "duplicate-text",
            agent: both.join(", "),
            file: c.path,
            message: `same text as ${other}: ${both.join(", ")} read${both.length === 1 ? "s" : ""} both and get${both.length === 1 ? "s" : ""} it twice (ctxinject keeps one copy)`,
          }
        : {
            severity: "info",
            kind: "duplicate-text",
            agent: agentOf(c.path),
            file: c.path,
            message: `same text as ${other}, each for another agent: no agent reads both (ctxinject keeps one copy)`,
          },
    );
  }
  return findings;
}

function importChecks(files: SourceFile[], isAgentFile: (path: string) => boolean, exists: (path: string) => boolean): Finding[] {
  const findings: Finding[] = [];
  for (const file of files) {
    if (!isAgentFile(file.path)) continue;
    const lineAt = lineCounter(file.text);
    for (const { token, start } of importTokens(file.text)) {
      const line = lineAt(start);
      const target = resolveImport(file.path, token);
      if (target === null) {
        if (token.startsWith("~/")) continue; // the user's own files: Claude Code reads them, they are no part of the tree
        findings.push({
          severity: "warning",
          kind: "import-outside",
          agent: "claude-code",
          file: file.path,
          line,
          message: `@${token} leads out of the repository: ctxinject does not follow it, and a clone elsewhere will not have it`,
        });
      } else if (!exists(target) && (/\.[A-Za-z0-9]{1,8}$/.test(token) || token.startsWith("./") || token.startsWith("../"))) {
        // A token that looks like a file (an extension, or ./ ../) and names none; `@scope/pkg` is not one.
        findings.push({
          severity: "warning",
          kind: "import-missing",
          agent: "claude-code",
          file: file.path,
          line,
          message: `@${token} names ${target}, which is not there: the agents that expand imports leave it as written`,
        });
      }
    }
  }
  return findings;
}

/**
 * Codex reads the AGENTS chain from the project top to its working folder within 32 KiB, root first: where a
 * folder's chain is longer, the file nearest the code is cut, and Codex never sees the rest.
 */
function codexChecks(files: SourceFile[], settings: AgentSettings = {}): Finding[] {
  const names = codexNames(settings);
  const budget = settings.maxBytes ?? CODEX_BUDGET_BYTES;
  const present = new Set(files.map((f) => f.path));
  const text = new Map(files.map((f) => [f.path, f.text]));
  // A file's size measured once, not once per folder whose chain holds it (the root's file is in every chain).
  const sizes = new Map<string, number>();
  const bytesOf = (file: string, body: string): number => {
    let bytes = sizes.get(file);
    if (bytes === undefined) sizes.set(file, (bytes = utf8Bytes(body)));
    return bytes;
  };
  const findings = new Map<string, Finding>();
  const folders = new Set(files.filter((f) => names.includes(baseName(f.path))).map((f) => dirOf(f.path)));
  for (const folder of folders) {
    let used = 0;
    for (const file of codexChain({ present, workingFolder: folder }, names)) {
      const body = text.get(file) ?? "";
      const bytes = bytesOf(file, body);
      if (used + bytes > budget) {
        const line = lineAtByte(body, budget - used);
        const key = `${file}:${line}`;
        if (!findings.has(key)) {
          const chain = ancestorsOf(folder).length > 1 ? ` (the chain for ${folder === "" ? "the root" : `${folder}/`})` : "";
          findings.set(key, {
            severity: "warning",
            kind: "codex-budget",
            agent: "codex",
            file,
            line,
            message: `Codex reads AGENTS files within ${budget / 1024} KiB, root first${chain}: it cuts this file at line ${line} and never sees the rest`,
          });
        }
        break;
      }
      used += bytes;
    }
  }
  return [...findings.values()];
}

/**
 * An agent file's chain — the file of that name in every folder from the root down, with what each `@imports` —
 * goes into every prompt of an agent that loads it: past `max` tokens (config doctor.maxChainTokens), say so at the
 * deepest file. A CLAUDE.md of import lines only is as long as what it imports (Claude Code expands them).
 */
function chainChecks(files: SourceFile[], candidates: readonly Candidate[], max: number, agentOf: (path: string) => string): Finding[] {
  const findings: Finding[] = [];
  const tokens = new Map(files.map((f) => [f.path, approxTokens(f.text)]));
  const importsOf = new Map<string, string[]>();
  for (const c of candidates) if (c.path !== null && c.imports !== undefined && c.imports.length > 0) importsOf.set(c.path, flattenImports(c.imports));
  for (const file of files) {
    const name = baseName(file.path);
    if (!/^(AGENTS|CLAUDE|GEMINI)\.md$/.test(name)) continue;
    const chain = ancestorsOf(dirOf(file.path))
      .map((folder) => joinPath(folder, name))
      .filter((p) => tokens.has(p));
    // Each file of the chain and each file it imports, once.
    const counted = new Set<string>();
    for (const p of chain) for (const q of [p, ...(importsOf.get(p) ?? [])]) if (tokens.has(q)) counted.add(q);
    let total = 0;
    for (const p of counted) total += tokens.get(p)!;
    if (total > max) {
      const imported = counted.size - chain.length;
      const withImports = imported > 0 ? `, with the ${imported} file${imported === 1 ? "" : "s"} it imports,` : "";
      findings.push({
        severity: "warning",
        kind: "long-chain",
        agent: agentOf(file.path),
        file: file.path,
        message: `the ${name} chain down to here (${chain.join(" → ")})${withImports} is about ${total} tokens, over doctor.maxChainTokens ${max}: every agent that loads it carries it into every prompt`,
      });
    }
  }
  return findings;
}

/** The 1-based line holding the byte at `offset` (UTF-8). */
function lineAtByte(text: string, offset: number): number {
  let bytes = 0;
  let line = 1;
  for (const ch of text) {
    bytes += utf8Bytes(ch);
    if (bytes > offset) return line;
    if (ch === "\n") line++;
  }
  return line;
}
