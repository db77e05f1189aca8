/**
 * How costly a glob from a repository may be to match, decided from its text before picomatch compiles it.
 *
 * picomatch turns a glob into a backtracking regular expression: each `*` becomes `[^/]*?`, each `**` a lazy run
 * over segments, each brace group an alternation, each extglob a group with a quantifier. A failing match tries
 * every way those pieces can share the path, so its time grows like (path length)^(number of pieces): eighteen
 * `*a` against sixty `a` ran past a minute, twenty `{a,a}` groups took 85 ms and thirty did not finish, and nothing
 * can stop a running regular expression. So a glob is sorted into one of three lots:
 * - simple (at most two wildcards, one brace group, no extglob): every such glob's worst case at a 4 KiB path was
 *   measured under 25 ms, and it is what almost every rule holds, so it stays on picomatch's own regexp, free;
 * - linear: anything richer runs on a linear-time engine (core/linear-regexp.ts), loaded only then;
 * - refused: past the limits below even a linear engine's program grows too large; the glob matches nothing and
 *   the caller warns.
 * picomatch 4 never expands braces or `{a..z}` ranges into lists (it writes alternations and classes), so the
 * `braces` package's memory blow-up cannot happen; the brace limits hold the alternation's size instead.
 */

/** The longest glob taken (the longest of 210 distinct globs in ../shared/corpus has 90). */
const MAX_GLOB_LENGTH = 512;
/** `*` runs and `**` segments together (the corpus's most: 4). */
export const MAX_GLOB_WILDCARDS = 16;
/** `{…}` groups, ranges included (the corpus's most: 1). */
const MAX_GLOB_BRACES = 8;
/** Braces inside braces (the corpus's deepest: 1). */
const MAX_GLOB_BRACE_DEPTH = 3;
/** `*(…)`, `+(…)`, `?(…)`, `@(…)`, `!(…)` (the corpus has none). */
const MAX_GLOB_EXTGLOBS = 8;

/** What a glob holds that costs time when it is matched. */
interface GlobShape {
  length: number;
  /** `*` runs within a segment and `**` segments, each counted once. */
  wildcards: number;
  globstars: number;
  braces: number;
  braceDepth: number;
  extglobs: number;
}

/** Counts over the text as written: a `*` or `{` inside a class is counted too (over-counting only costs a linear match). */
export function globShape(pattern: string): GlobShape {
  const shape: GlobShape = { length: pattern.length, wildcards: 0, globstars: 0, braces: 0, braceDepth: 0, extglobs: 0 };
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") {
      i++;
      continue;
    }
    if ("*?+@!".includes(c) && pattern[i + 1] === "(") {
      shape.extglobs++;
      i++;
      continue;
    }
    if (c === "*") {
      let end = i;
      while (pattern[end + 1] === "*") end++;
      const whole = (i === 0 || pattern[i - 1] === "/") && (end === pattern.length - 1 || pattern[end + 1] === "/");
      if (whole && end > i) shape.globstars++;
      shape.wildcards++;
      i = end;
      continue;
    }
    if (c === "{") {
      shape.braces++;
      depth++;
      if (depth > shape.braceDepth) shape.braceDepth = depth;
    } else if (c === "}" && depth > 0) depth--;
  }
  return shape;
}

/** Why a glob is not matched at all, or null when it is taken. */
export function globProblem(shape: GlobShape): string | null {
  if (shape.length > MAX_GLOB_LENGTH) return `it is longer than ${MAX_GLOB_LENGTH} characters`;
  if (shape.wildcards > MAX_GLOB_WILDCARDS) return `it has ${shape.wildcards} wildcards (at most ${MAX_GLOB_WILDCARDS} are matched)`;
  if (shape.braces > MAX_GLOB_BRACES) return `it has ${shape.braces} brace groups (at most ${MAX_GLOB_BRACES} are matched)`;
  if (shape.braceDepth > MAX_GLOB_BRACE_DEPTH) return `its braces nest ${shape.braceDepth} deep (at most ${MAX_GLOB_BRACE_DEPTH})`;
  if (shape.extglobs > MAX_GLOB_EXTGLOBS) return `it has ${shape.extglobs} extglob groups (at most ${MAX_GLOB_EXTGLOBS} are matched)`;
  return null;
}

/** Whether picomatch's own (backtracking) regexp is safe for this glob at any path length; else a linear engine runs it. */
export function isSimpleGlob(shape: GlobShape): boolean {
  return shape.wildcards <= 2 && shape.braces <= 1 && shape.braceDepth <= 1 && shape.extglobs === 0;
}
