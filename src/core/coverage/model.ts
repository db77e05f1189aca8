/**
 * `ctxinject coverage`, the pure part: for every folder and every agent, what the agent loads by itself there, what
 * ctxinject adds for it (with the host integration installed), the tokens, and what goes wrong there. It reads the
 * selection `build --all` makes (kinds, globs, duplicates) and asks each agent's profile (core/agents, the one model
 * the hooks and `explain --as` use); it decides nothing about a rule that select did not decide first.
 *
 * In phases, each in a file of its own: the candidates (candidates.ts) → the globs' matches (glob-matches.ts) → per
 * folder, what applies and each agent's own answer (folder-answers.ts) → the folder's cells (cells.ts, numbering
 * entries and findings in numbering.ts) → the folders listed, alike ones collapsed (below) → the rule rows
 * (rule-rows.ts).
 */
import type { Candidate } from "../types.js";
import { dirOf } from "../rel-path.js";
import { CoverageCandidates } from "./candidates.js";
import { CellTable } from "./cells.js";
import { FolderAnswers } from "./folder-answers.js";
import { codeFiles, eachFolder, folderTree, type Folder } from "./folders.js";
import { GlobMatches } from "./glob-matches.js";
import { freshObjects, sameIds } from "./lists.js";
import { REPRESENTATIVE_RULE, type Coverage, type CoverageFolder, type CoverageInput, type CoverageModel } from "./model-types.js";
import { Numbering } from "./numbering.js";
import { ruleRows, statesByFile } from "./rule-rows.js";

export * from "./model-types.js";

export function coverageModel(input: CoverageInput): Coverage {
  // candidates → matchers
  const candidates = new CoverageCandidates(input);
  const code = codeFiles(input.tracked, input.isInstruction);
  const matches = new GlobMatches(code, input.anchorOf, input.linear, input.memo);
  // per folder: what applies and the agents' own answers, then its cells
  const names = input.profiles.map((p) => p.name);
  const answers = new FolderAnswers(candidates, matches, input.anchorOf, input.plainReasons, input.profiles);
  const numbering = new Numbering(names);
  const agents = {
    names,
    caps: input.profiles.map((p) => p.maxChars ?? -1),
    hooked: input.profiles.map((p) => input.integrated.has(p.name)),
    expands: input.profiles.map((p) => p.expandsImports === true),
  };
  const table = new CellTable(numbering, candidates, agents, answers);
  const root = folderTree(code);
  const folders = eachFolder(root);
  eachRow(folders, candidates, answers, table);
  // the folders listed, then the rule rows
  const model: CoverageModel = {
    agents: input.profiles.map((p) => ({ name: p.name, integration: input.integrated.has(p.name) })),
    representative: REPRESENTATIVE_RULE,
    folders: listFolders(folders, table.every, names),
    items: numbering.items,
    cells: table.cells,
    rules: ruleRows(input, root, matches, statesByFile(candidates.indexOf, table.state, names), table.copiedBy),
  };
  return { model, every: table.every };
}

/**
 * Every folder's row, parents before children. The loop over the folders is a function of its own: V8 compiles a
 * hot loop's whole function on the spot (OSR), and compiling all of coverageModel for it, twice (code after the loop
 * had no type feedback yet), took ~0.45 s of CPU on a 100k-file tree.
 */
function eachRow(folders: readonly Folder[], candidates: CoverageCandidates, answers: FolderAnswers, table: CellTable): void {
  const { order, byAnchor } = candidates;
  // What applies in a folder, parents before children: a parent's list, plus the folder's own, in selection order.
  const scopedOf = new Map<string, Candidate[]>();
  const merged = (x: Candidate[], y: Candidate[]): Candidate[] => {
    const out: Candidate[] = freshObjects();
    let i = 0;
    let j = 0;
    while (i < x.length || j < y.length) {
      if (j >= y.length || (i < x.length && order.get(x[i]!)! < order.get(y[j]!)!)) out.push(x[i++]!);
      else out.push(y[j++]!);
    }
    return out;
  };
  for (let n = 0; n < folders.length; n++) {
    const folder = folders[n]!;
    const inherited = folder.path === "" ? [] : (scopedOf.get(dirOf(folder.path)) ?? []);
    const own = byAnchor.get(folder.path);
    const scoped = own === undefined ? inherited : merged(inherited, own);
    if (folder.children.length > 0) scopedOf.set(folder.path, scoped);
    const count = answers.collect(scoped, folder.own > 0 ? folder.at : -1);
    answers.ask(count, folder.representative);
    // A folder with no rule of its own whose candidates and answers are an earlier folder's has that folder's row:
    // its cells are a function of them (sibling folders of a package mostly are; a third of a large tree's).
    const key = own === undefined ? answers.rowKey() : -1;
    if (key >= 0) {
      const earlier = answers.earlierRow(key);
      if (earlier !== undefined) {
        table.sameRowAs(folder, earlier);
        continue;
      }
    }
    table.row(n, folder, own, count, key);
  }
}

/**
 * The folders as the model lists them: parents first, each folder below one whose folders all have its cells left
 * out (that one says how many). Children first for the counts (`folders` lists parents first), in plain loops over
 * numbers: recursive functions with callbacks over 8k folders were compiled by V8 for ~130 ms of CPU, to run once for
 * a few milliseconds.
 */
function listFolders(folders: readonly Folder[], every: ReadonlyMap<string, readonly number[]>, names: readonly string[]): CoverageFolder[] {
  const listed: CoverageFolder[] = [];
  const numberOf = new Map<Folder, number>();
  for (let n = 0; n < folders.length; n++) numberOf.set(folders[n]!, n);
  const alike = new Uint8Array(folders.length);
  const below = new Int32Array(folders.length);
  for (let n = folders.length - 1; n >= 0; n--) {
    const folder = folders[n]!;
    const ids = every.get(folder.path)!;
    let same = 1;
    let count = 0;
    for (let i = 0; i < folder.children.length; i++) {
      const child = numberOf.get(folder.children[i]!)!;
      count += 1 + below[child]!;
      if (same === 1 && (alike[child] === 0 || !sameIds(every.get(folders[child]!.path)!, ids))) same = 0;
    }
    alike[n] = same;
    below[n] = count;
  }
  // A listed folder's cells keyed by agent, made once per row (folders alike share theirs).
  const keyed = new Map<readonly number[], Record<string, number>>();
  const cellsOf = (indexes: readonly number[]): Record<string, number> => {
    let row = keyed.get(indexes);
    if (row === undefined) {
      row = {};
      for (let agent = 0; agent < names.length; agent++) row[names[agent]!] = indexes[agent]!;
      keyed.set(indexes, row);
    }
    return row;
  };
  // Parents first, each folder below a collapsed one left out (so are the folders below those).
  const shut = new Uint8Array(folders.length);
  for (let n = 0; n < folders.length; n++) {
    const folder = folders[n]!;
    const collapse = folder.children.length > 0 && alike[n] === 1;
    if (shut[n] === 0) listed.push(new ListedFolder(folder, collapse ? below[n]! : 0, cellsOf(every.get(folder.path)!)));
    if (shut[n] === 1 || collapse) for (let i = 0; i < folder.children.length; i++) shut[numberOf.get(folder.children[i]!)!] = 1;
  }
  return listed;
}

/** A folder as the model lists it (fields in the JSON's order). */
class ListedFolder implements CoverageFolder {
  path: string;
  depth: number;
  files: number;
  representative: string;
  hidden: number;
  cells: Record<string, number>;
  constructor(folder: Folder, hidden: number, cells: Record<string, number>) {
    this.path = folder.path;
    this.depth = folder.depth;
    this.files = folder.files;
    this.representative = folder.representative;
    this.hidden = hidden;
    this.cells = cells;
  }
}
