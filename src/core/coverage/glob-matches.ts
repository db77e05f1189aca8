/**
 * The coverage model's second phase: which pattern of an auto rule matches a tracked file, asked for every (rule,
 * file) pair the folders and the rules' counts meet. A glob matches the path below its anchor (core/parse/globs.ts),
 * and a pattern without a `/` a nested path's last segment: every package's `src/**\/*.ts` over the same layout, or a
 * `*.ts` over 100k files, is worked out once per path below the anchor or per file name, for the folders' files and
 * the rules' counts alike. A path is known by numbers (its folder below the anchor, then its file name), each file's
 * cut out once: a string sliced per check and hashed as a map key was the hottest line of a 100k-file tree's run.
 */
import type { LinearEngine } from "../linear-regexp.js";
import { compileGlobs, normalizePattern, type GlobMatcher } from "../parse/globs.js";
import { firstFrom } from "../rel-path.js";
import type { RunMemo } from "../run-memo.js";
import type { Candidate } from "../types.js";
import { fresh } from "./lists.js";

/** A rule's globs as the folder loop matches them. */
class GlobsOf {
  constructor(
    /** Per folder below the anchor (path patterns) or per place (name patterns: 0 nested, 1 at the anchor): name → hit. */
    readonly known: Array<Map<number, string | null>> | null,
    readonly byName: boolean,
    readonly cut: number,
    readonly relDirs: Map<number, number>,
    readonly match: GlobMatcher,
  ) {}
}

export class GlobMatches {
  private readonly globOptions: { linear?: LinearEngine; memo?: RunMemo };
  private readonly matchers = new Map<Candidate, GlobMatcher>();
  private readonly nameIds: Int32Array;
  private readonly dirIds: Int32Array;
  private readonly nameIdOf = new Map<string, number>();
  private readonly dirIdOf = new Map<string, number>();
  private readonly dirPaths: string[] = [];
  /** Per cut (an anchor's length and its `/`): a folder's number → its path below the anchor, numbered. */
  private readonly relDirsByCut = new Map<number, Map<number, number>>();
  private readonly relDirIdOf = new Map<string, number>();
  private readonly globHits = new Map<string, Array<Map<number, string | null>>>();
  private readonly globsOf = new Map<Candidate, GlobsOf>();
  // The rules' counts ask for one rule over a run of files, most in the folder of the one before: the rule's globs
  // and the folder's answers by file name are those of the last call.
  private lastC: Candidate | null = null;
  private lastG: GlobsOf | undefined = undefined;
  private lastDir = -1;
  private lastByName: Map<number, string | null> | undefined = undefined;

  constructor(
    /** The tracked files that are no instruction file, in path order. */
    readonly code: readonly string[],
    private readonly anchorOf: (path: string) => string,
    linear: LinearEngine | undefined,
    memo: RunMemo | undefined,
  ) {
    this.globOptions = linear !== undefined ? { linear, ...(memo && { memo }) } : memo ? { memo } : {};
    this.nameIds = new Int32Array(code.length).fill(-1);
    this.dirIds = new Int32Array(code.length).fill(-1);
  }

  // matchOf runs for every (rule, file) pair and V8 compiles it again each time it meets a path its code has not
  // seen (a rule's first call, a new folder): the rare paths are functions of their own, so matchOf stays small and
  // each recompile is cheap (it was compiled 5 times, 20-100 ms apiece, on the large tree).
  /** The pattern of `c` that matches `code[at]`, if any. */
  matchOf(c: Candidate, at: number): string | null {
    if (c !== this.lastC) {
      this.lastC = c;
      this.lastG = this.globsOf.get(c) ?? this.globsFor(c);
      this.lastDir = -1;
    }
    const g = this.lastG!;
    const file = this.code[at]!;
    if (g.known === null) return g.match(file);
    if (this.nameIds[at]! < 0) this.idsAt(at);
    const dir = this.dirIds[at]!;
    if (dir !== this.lastDir) {
      this.lastDir = dir;
      this.lastByName = this.answersIn(g, dir);
    }
    const name = this.nameIds[at]!;
    let hit = this.lastByName!.get(name);
    if (hit === undefined) this.lastByName!.set(name, (hit = g.match(file)));
    return hit;
  }

  private matcherOf(c: Candidate): GlobMatcher {
    let m = this.matchers.get(c);
    if (m === undefined) {
      m = compileGlobs(c.globs, c.path === null ? "" : this.anchorOf(c.path), this.globOptions);
      this.matchers.set(c, m);
    }
    return m;
  }

  private idsAt(at: number): void {
    const file = this.code[at]!;
    const slash = file.lastIndexOf("/");
    const name = file.slice(slash + 1);
    let id = this.nameIdOf.get(name);
    if (id === undefined) this.nameIdOf.set(name, (id = this.nameIdOf.size));
    this.nameIds[at] = id;
    // Files come in path order: most are in the folder of the file before them (no slice, no lookup).
    const before = at > 0 ? this.dirIds[at - 1]! : -1;
    if (before >= 0 && this.dirPaths[before]!.length === Math.max(slash, 0) && (slash < 0 || file.startsWith(this.dirPaths[before]!))) {
      this.dirIds[at] = before;
      return;
    }
    const dir = slash < 0 ? "" : file.slice(0, slash);
    id = this.dirIdOf.get(dir);
    if (id === undefined) {
      this.dirIdOf.set(dir, (id = this.dirPaths.length));
      this.dirPaths.push(dir);
    }
    this.dirIds[at] = id;
  }

  /** A rule's globs and what they answered so far: made on the rule's first file. */
  private globsFor(c: Candidate): GlobsOf {
    const anchor = c.path === null ? "" : this.anchorOf(c.path);
    const byName = c.globs.every((p) => this.nameOnly(p, anchor));
    let known: Array<Map<number, string | null>> | null = null;
    // A path pattern at the top is asked once per file anyway: nothing to share.
    if (anchor !== "" || byName) {
      const globsKey = `${byName ? "name" : "path"}\n${c.globs.join("\n")}`;
      known = this.globHits.get(globsKey) ?? null;
      if (known === null) this.globHits.set(globsKey, (known = fresh()));
    }
    const cut = anchor === "" ? 0 : anchor.length + 1;
    let relDirs = this.relDirsByCut.get(cut);
    if (relDirs === undefined) this.relDirsByCut.set(cut, (relDirs = new Map()));
    const g = new GlobsOf(known, byName, cut, relDirs, this.matcherOf(c));
    this.globsOf.set(c, g);
    return g;
  }

  /**
   * Whether `pattern`'s answer for a file is a function of the file's name (and whether it is at the anchor itself):
   * one without a `/`, or `**\/` and one without a `/` (git tracks no `.` or `..` segment, so any folders match
   * the `**`). A top-level `**\/*.ts` was matched against each of a 100k-file tree's files for the rule's count
   * (~30 ms); by name, once per file name. Not where a folder named `**` at the anchor holds files: a path equal to
   * the pattern matches as written.
   */
  private nameOnly(pattern: string, anchor: string): boolean {
    const p = pattern.startsWith("!") ? pattern.slice(1) : pattern;
    if (!p.includes("/") && !p.includes("\\")) return true;
    const normal = normalizePattern(p);
    if (!normal.startsWith("**/") || normal.includes("/", 3)) return false;
    const literal = anchor === "" ? "**/" : `${anchor}/**/`;
    const at = firstFrom(this.code, literal);
    return at >= this.code.length || !this.code[at]!.startsWith(literal);
  }

  /** The answers by file name of `g` for files in folder `dir` (shared by every folder alike below its anchor). */
  private answersIn(g: GlobsOf, dir: number): Map<number, string | null> {
    // A file at the anchor itself is matched as a whole (a pattern equal to the path matches it as written).
    let place: number;
    if (g.byName) place = this.dirPaths[dir]!.length >= g.cut && this.dirPaths[dir] !== "" ? 0 : 1;
    else {
      let rel = g.relDirs.get(dir);
      if (rel === undefined) {
        const below = this.dirPaths[dir]!.slice(g.cut);
        rel = this.relDirIdOf.get(below);
        if (rel === undefined) this.relDirIdOf.set(below, (rel = this.relDirIdOf.size));
        g.relDirs.set(dir, rel);
      }
      place = rel;
    }
    let byName = g.known![place];
    if (byName === undefined) g.known![place] = byName = new Map();
    return byName;
  }
}
