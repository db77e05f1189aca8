import type { RunEnvironment } from "../pipeline.js";
import type { AgentProfile } from "../../core/agents/profile.js";
import type { Config } from "../../core/config.js";
import type { CoverageInput } from "../../core/coverage/model.js";
import { diagnose } from "../../core/doctor/index.js";
import { usageError } from "../../core/errors.js";
import { dirOf, joinPath } from "../../core/rel-path.js";
import { trackedClean } from "../../core/confined-path.js";
import { createRunMemo, type RunMemo } from "../../core/run-memo.js";
import { selectContext, type Selection } from "../../core/select.js";
import { PACKAGE_MANIFESTS } from "../../core/sources/readme.js";
import { instructionNames, locateOptionsOf, sourceLocator } from "../../core/sources/index.js";
import type { SourceFile, Warning } from "../../core/types.js";
import { MAX_FILE_BYTES } from "../fs/bounded-read.js";
import { HOSTS } from "../../hosts/index.js";
import { readDoctorTree } from "./doctor-tree.js";
import { blobsAt, filesAt, treeEntries, type GitEnvironment } from "../git/git.js";
import { linearEngine } from "../linear-regexp.js";

/**
 * The agents with a host integration that injects on its own (src/hosts: a command hook or a plugin). The others
 * (Cursor, Copilot, Windsurf, Kiro…) get what ctxinject writes into their own files.
 */
export const INTEGRATED_AGENTS: ReadonlySet<string> = new Set(HOSTS.map((host) => host.name));

export interface CoverageTree {
  root: string;
  input: CoverageInput;
  config: Config;
  memo: RunMemo;
  warnings: Warning[];
}

/**
 * What `coverage` reads: doctor's tree (what `build --all` reads and selects, every tracked file, each agent as its
 * own settings have it) and doctor's findings over it, plus the reasons a build with no target gives (an always
 * rule's own words, as `explain` says them).
 */
export async function readCoverageTree(run: RunEnvironment, rootFlag: string | undefined, agents: readonly string[] | undefined): Promise<CoverageTree> {
  const tree = await readDoctorTree(run, rootFlag);
  const findings = diagnose({ ...tree, linear: linearEngine });
  const memo = tree.memo ?? createRunMemo();
  const profiles = pick(tree.profiles ?? [], agents);
  const input = coverageInput(tree.selection, tree.files, tree.tracked, tree.config, memo, profiles, findings);
  return { root: tree.root, input, config: tree.config, memo, warnings: tree.warnings };
}

/**
 * The same picture at a commit: REF's files as git stores them (objects only: nothing of the work tree, no filter
 * or hook runs), selected with the working tree's config. `@imports` are not followed at REF.
 */
export function readCoverageAt(root: string, ref: string, head: CoverageTree, env: GitEnvironment): { input: CoverageInput; warnings: Warning[] } {
  const listed = filesAt(root, ref, env);
  if (!listed.ok) throw usageError(`--base ${ref}: git cannot list that revision (${listed.stderr.split("\n")[0]})`);
  const warnings: Warning[] = [];
  const entries = treeEntries(listed.stdout);
  const modeOf = new Map(entries.map((e) => [e.path, e.mode]));
  const tracked = trackedClean(
    entries.map((e) => e.path),
    `${ref}'s tree`,
    warnings,
  ).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const options = locateOptionsOf(head.config);
  const locate = sourceLocator(options, head.memo);
  const mayBeInstruction = instructionSieve(instructionNames(options));
  const outside = (path: string) => path.startsWith("node_modules/") || path.includes("/node_modules/");
  const wanted = tracked.filter((p) => !outside(p) && mayBeInstruction(p) && locate(p) !== null);
  const read = blobsAt(root, ref, wanted, MAX_FILE_BYTES, env);
  if ("error" in read) throw usageError(`--base ${ref}: git cannot read its files (${read.error.split("\n")[0]})`);
  for (const file of read.tooLarge) warnings.push({ file, message: `at ${ref}: larger than ${MAX_FILE_BYTES} bytes; left out` });
  const realOf = symlinksAt(root, ref, env, wanted, modeOf, read.blobs, warnings);
  const files: SourceFile[] = [];
  const decoder = new TextDecoder("utf-8");
  for (const path of wanted) {
    const real = modeOf.get(path) === SYMLINK ? realOf.get(path) : path;
    const bytes = real === undefined ? undefined : read.blobs.get(real);
    if (bytes === undefined || bytes.includes(0)) continue;
    files.push(real === path ? { path, text: decoder.decode(bytes) } : { path, text: decoder.decode(bytes), realPath: real! });
  }
  const packageRoots = new Set(tracked.filter((p) => PACKAGE_MANIFESTS.includes(p.slice(p.lastIndexOf("/") + 1))).map(dirOf));
  const selection = selectContext({ files, targets: [], all: true, packageRoots, config: head.config, linear: linearEngine, memo: head.memo, custom: [] });
  const profiles = head.input.profiles;
  return { input: coverageInput(selection, files, tracked, head.config, head.memo, profiles, []), warnings };
}

/** git's mode of a symlink: its blob holds the path it leads to. */
const SYMLINK = "120000";
/** How many links one path may go through, as the kernel allows (ELOOP beyond). */
const MAX_LINKS = 40;

/**
 * Each symlink among `paths` at REF → the file it leads to (root-relative), as the working tree's reading takes a
 * symlink: another name of its target (core/same-file.ts). A link leading outside the project, to a folder or to
 * nothing is not followed (a warning names it). The blobs of the targets (and of links on the way) are read into
 * `blobs`.
 */
function symlinksAt(
  root: string,
  ref: string,
  env: GitEnvironment,
  paths: readonly string[],
  modeOf: ReadonlyMap<string, string>,
  blobs: Map<string, Buffer>,
  warnings: Warning[],
): Map<string, string> {
  const realOf = new Map<string, string>();
  let open = paths.filter((p) => modeOf.get(p) === SYMLINK).map((link) => ({ link, at: link, hops: 0 }));
  while (open.length > 0) {
    const next: typeof open = [];
    for (const walk of open) {
      const text = blobs.get(walk.at)?.toString("utf8");
      const to = text === undefined ? null : linkTarget(root, walk.at, text);
      const mode = to === null ? undefined : modeOf.get(to);
      if (to === null || text === undefined)
        warnings.push({ file: walk.link, message: `at ${ref}: leads to ${text ?? "?"}, outside the project root; not followed` });
      else if (mode === SYMLINK && walk.hops < MAX_LINKS) next.push({ link: walk.link, at: to, hops: walk.hops + 1 });
      else if (mode === undefined || !mode.startsWith("100"))
        warnings.push({ file: walk.link, message: `at ${ref}: leads to ${to}, which is no file there; left out` });
      else {
        realOf.set(walk.link, to);
        if (!blobs.has(to)) next.push({ link: walk.link, at: to, hops: walk.hops });
      }
    }
    // The paths still unread (links on the way, targets), in one batch per round.
    const unread = [...new Set(next.filter((w) => !blobs.has(w.at)).map((w) => w.at))];
    if (unread.length > 0) {
      const more = blobsAt(root, ref, unread, MAX_FILE_BYTES, env);
      if ("error" in more) throw usageError(`--base ${ref}: git cannot read its files (${more.error.split("\n")[0]})`);
      for (const [path, bytes] of more.blobs) blobs.set(path, bytes);
      for (const file of more.tooLarge) warnings.push({ file, message: `at ${ref}: larger than ${MAX_FILE_BYTES} bytes; left out` });
    }
    // A target read is done; a link on the way is walked again.
    open = next.filter((w) => modeOf.get(w.at) === SYMLINK && blobs.has(w.at));
  }
  return realOf;
}

/** The root-relative path a link at `link` holding `text` leads to; null when it leads outside the root. */
function linkTarget(root: string, link: string, text: string): string | null {
  const absolute = text.startsWith("/");
  if (absolute && !text.startsWith(`${root}/`)) return null;
  const segments = absolute ? text.slice(root.length + 1).split("/") : [...(dirOf(link) === "" ? [] : dirOf(link).split("/")), ...text.split("/")];
  const out: string[] = [];
  for (const segment of segments) {
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") out.push(segment);
    else if (out.pop() === undefined) return null;
  }
  return out.length === 0 ? null : out.join("/");
}

function coverageInput(
  selection: Selection,
  files: SourceFile[],
  tracked: string[],
  config: Config,
  memo: RunMemo,
  profiles: readonly AgentProfile[],
  findings: CoverageInput["findings"],
): CoverageInput {
  const options = locateOptionsOf(config);
  const locate = sourceLocator(options, memo);
  const anchorOf = (path: string) => locate(path)?.anchor ?? dirOf(path);
  const mayBeInstruction = instructionSieve(instructionNames(options));
  return {
    candidates: selection.candidates,
    plainReasons: plainReasons(selection, files, config, memo, anchorOf),
    tracked,
    profiles,
    integrated: INTEGRATED_AGENTS,
    findings,
    anchorOf,
    isInstruction: (path) => mayBeInstruction(path) && locate(path) !== null,
    linear: linearEngine,
    memo,
  };
}

/**
 * Whether a path may be an instruction file at all: its name is one a module reads, or it lies in a module's folder
 * (the only two ways core/sources/locate.ts claims a path). coverage asks about every tracked file, and the run's
 * locator remembers each path it is asked about: 100k entries kept alive to the end of the run (a good part of its
 * garbage collections' copying) for files no module could claim.
 */
function instructionSieve(spec: { folders: string[]; names: string[] }): (path: string) => boolean {
  const names = new Set(spec.names.map((name) => name.slice(name.lastIndexOf("/") + 1)));
  const folders = spec.folders.length === 0 ? null : new RegExp(`(?:^|/)(?:${spec.folders.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})/`);
  return (path) => names.has(path.slice(path.lastIndexOf("/") + 1)) || (folders !== null && folders.test(path));
}

/**
 * An always rule's own words in a build ("alwaysApply: true", "copilot-instructions.md applies to every file"), as
 * explain gives them: the always rules alone selected once, for a file in each of their folders (--all says
 * "--all (always)" instead). No auto rule is in that run, so no glob is matched for it.
 */
function plainReasons(selection: Selection, files: SourceFile[], config: Config, memo: RunMemo, anchorOf: (path: string) => string): Map<string, string> {
  const always = new Set(selection.candidates.filter((c) => c.kind === "always" && c.path !== null).map((c) => c.path!));
  if (always.size === 0) return new Map();
  // One small run per folder: in one run over every always rule of a large tree, dedup compares each pair of texts.
  const byAnchor = new Map<string, SourceFile[]>();
  for (const file of files) {
    if (!always.has(file.path)) continue;
    const anchor = anchorOf(file.path);
    const list = byAnchor.get(anchor);
    if (list === undefined) byAnchor.set(anchor, [file]);
    else list.push(file);
  }
  const reasons = new Map<string, string>();
  for (const [anchor, group] of byAnchor) {
    const plain = selectContext({ files: group, targets: [joinPath(anchor, ".ctxinject-coverage-probe")], config, linear: linearEngine, memo });
    for (const c of plain.candidates)
      if (c.kind === "always" && c.status !== "unmatched")
        reasons.set(`${c.source}:${c.id}`, c.reason.startsWith("same content as ") || c.reason.startsWith("its whole text") ? "always" : c.reason);
  }
  return reasons;
}

/** The profiles `--as` names, in the order given; every agent's without it. */
function pick(profiles: readonly AgentProfile[], agents: readonly string[] | undefined): AgentProfile[] {
  if (agents === undefined || agents.length === 0) return [...profiles];
  return agents.map((name) => profiles.find((p) => p.name === name) ?? null).filter((p): p is AgentProfile => p !== null);
}
