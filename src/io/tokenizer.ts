import { createRequire } from "node:module";
import { approxTokens, type CountTokens } from "../core/tokens.js";
import type { TokenizerName } from "../core/types.js";

type Encoding = { countTokens: CountTokens };

/**
 * The token counter for a name. BPE tables are megabytes: they load only when asked for. require, not import():
 * the CLI runs from V8's code cache, where a dynamic import() has no loader to call (see bin/ctxinject.js).
 */
export async function loadTokenizer(name: TokenizerName): Promise<CountTokens> {
  if (name === "approx") return approxTokens;
  const encoding = name === "o200k" ? "o200k_base" : "cl100k_base";
  return (createRequire(import.meta.url)(`gpt-tokenizer/encoding/${encoding}`) as Encoding).countTokens;
}
