import { approxTokens, type CountTokens } from "../core/tokens.js";
import type { TokenizerName } from "../core/types.js";

/** The token counter for a name. BPE tables are megabytes: they are imported only when asked for. */
export async function loadTokenizer(name: TokenizerName): Promise<CountTokens> {
  switch (name) {
    case "approx":
      return approxTokens;
    case "o200k":
      return (await import("gpt-tokenizer/encoding/o200k_base")).countTokens;
    case "cl100k":
      return (await import("gpt-tokenizer/encoding/cl100k_base")).countTokens;
  }
}
