import { createRequire } from "node:module";
import { lazyConstant } from "../lazy-constant.js";

type YamlParse = (text: string) => unknown;

/** What js-yaml throws: the reason and where, apart from the message (which quotes the text around the error). */
export interface YamlError {
  reason?: string;
  mark?: { line: number; column: number };
}

/**
 * gray-matter's own YAML engine: js-yaml's safeLoad, whose schema has no tag that constructs code (`!!js/function`
 * is an unknown tag there, an error). Loaded on first use, so a tree without YAML never pays for it. Never
 * gray-matter's `matter()`: it runs a `---js` block through eval.
 */
export const loadSafeYaml: () => YamlParse = lazyConstant(() => {
  const require = createRequire(import.meta.url);
  const engines = require("gray-matter/lib/engines") as { yaml: { parse: YamlParse } };
  return engines.yaml.parse;
});
