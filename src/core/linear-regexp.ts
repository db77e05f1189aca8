/**
 * A regular expression run in time linear in its input, for patterns a repository supplies (keyword patterns,
 * rich globs): a backtracking regexp from such a pattern can run for minutes, and nothing stops it once it runs.
 * The core only names the shape; io/linear-regexp.ts makes one with re2js, loaded on the first pattern that needs it.
 */
export interface LinearRegExp {
  /** The first match's text as element 0 (the part of RegExp's exec that callers here read), or null. */
  exec(text: string): [string] | null;
  test(text: string): boolean;
}

/**
 * Compiles `source` (JavaScript regexp syntax). Throws an Error saying why when the engine cannot run it:
 * backreferences and lookaround need backtracking, which is what this engine is for avoiding.
 */
export type LinearEngine = (source: string, options: { ignoreCase: boolean }) => LinearRegExp;
