import type { RelevanceDoc } from "./relevance.js";

/**
 * Opt-in semantic scoring (docs/relevance.md, "Embeddings"): the vectors are worked out by the user's own embedding
 * server (io/embeddings.ts) and come in here as plain values; this module only compares and fuses them.
 */
export interface SemanticInput {
  /** The prompt's vector. */
  query: readonly number[];
  /** Each rule's vector, by its embeddingText (what was sent for it, before the server's document prefix). */
  vectors: ReadonlyMap<string, readonly number[]>;
  /** Cosine similarity from which a rule the words missed may still join the likely tier (a model's own scale). */
  minSimilarity: number;
}

/** Longest text sent for one rule: a skill's description says what it is for; its whole body would cost the server time on every new rule. */
const MAX_EMBEDDED_CHARS = 2000;

/**
 * What is embedded for a rule: what its author wrote about when it applies (name, description, `when_to_use`,
 * aliases), then the start of its body. The same text is the cache's key (with the model and the prefix).
 */
export function embeddingText(doc: RelevanceDoc): string {
  const head = [doc.name, doc.description, doc.whenToUse ?? "", (doc.aliases ?? []).join(", ")].filter((s) => s.trim() !== "").join("\n");
  return `${head}\n${doc.body}`.slice(0, MAX_EMBEDDED_CHARS).trim();
}

/** Cosine similarity; 0 for vectors of different lengths or a zero vector (a server's answer is not trusted to be sane). */
export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Reciprocal rank fusion's constant: 60, as in Cormack, Clarke and Buettcher (2009); it keeps one list's first
 * place from outweighing agreement between the two lists.
 */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion of two rankings of the same items (scores, higher first; ties by index, so the result is
 * deterministic): each item's 1/(k + rank) summed over both lists. Neither list replaces the other. An item the
 * model gave no vector (`undefined`: not embedded yet) is ranked by its words alone — its word rank stands for both —
 * rather than last of the model's list, where a rule with a vector and fewer words would pass it.
 */
export function reciprocalRankFusion(lexical: readonly number[], semantic: ReadonlyArray<number | undefined>): number[] {
  const ranks = (scores: ReadonlyArray<number | undefined>) => {
    const order = scores.flatMap((s, i) => (s === undefined ? [] : [[s, i] as const])).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    const rank = new Array<number | undefined>(scores.length);
    order.forEach(([, i], r) => (rank[i] = r + 1));
    return rank;
  };
  const l = ranks(lexical);
  const s = ranks(semantic);
  return lexical.map((_, i) => 1 / (RRF_K + l[i]!) + 1 / (RRF_K + (s[i] ?? l[i]!)));
}
