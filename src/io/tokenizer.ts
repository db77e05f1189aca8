import { approxTokens, type CountTokens } from "../core/tokens.js";
import type { TokenizerName } from "../core/types.js";
import { lazyRequire } from "./lazy-node.js";

type Encoding = { countTokens: CountTokens };

/** The token counter for a name. BPE tables are megabytes: they load only when asked for. */
export async function loadTokenizer(name: TokenizerName): Promise<CountTokens> {
  if (name === "approx") return approxTokens;
  const encoding = name === "o200k" ? "o200k_base" : "cl100k_base";
  return lazyRequire<Encoding>(`gpt-tokenizer/encoding/${encoding}`).countTokens;
}
