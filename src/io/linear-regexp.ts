import type { LinearEngine, LinearRegExp } from "../core/linear-regexp.js";
import { lazyRequire } from "./lazy-node.js";

type Re2js = typeof import("re2js");

/**
 * core/linear-regexp.ts's engine: re2js, a pure-JS port of RE2 (an automaton: time linear in the input, whatever
 * the pattern). Loaded on first use only (~10 ms and 260 KB): a repository with no custom keyword pattern and only
 * simple globs never loads it.
 */
export const linearEngine: LinearEngine = (source, options) => {
  const { RE2JS } = lazyRequire<Re2js>("re2js");
  let compiled: InstanceType<Re2js["RE2JS"]>;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(source), options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    throw new Error(reasonOf(source, error));
  }
  const regexp: LinearRegExp = {
    exec: (text) => {
      const m = compiled.exec(text);
      return m === null ? null : [String(m[0] ?? "")];
    },
    test: (text) => compiled.test(text),
  };
  return regexp;
};

/** RE2's own message, or what a reader of a JavaScript regexp would call the part it refused. */
function reasonOf(source: string, error: unknown): string {
  if (/\(\?<?[=!]/.test(source)) return "it uses lookaround, which a linear-time engine cannot run";
  if (/\\[1-9]|\\k</.test(source)) return "it uses a backreference, which a linear-time engine cannot run";
  const message = error instanceof Error ? error.message : String(error);
  return `the linear-time engine cannot run it (${message.split("\n")[0]})`;
}
