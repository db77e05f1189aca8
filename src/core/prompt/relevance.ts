import { memoize } from "../memo.js";
import { queryConcepts, terms, type Stem } from "./words.js";

/** An agent-requested rule as the scorer sees it. */
export interface RelevanceDoc {
  id: string;
  name: string;
  description: string;
  body: string;
}

export interface RelevanceScore {
  id: string;
  /** 0..1: how much of what the rule is about the prompt speaks of. */
  score: number;
  /** The prompt's words that matched, as they were stemmed, strongest first. */
  matched: string[];
}

/**
 * Field weights (BM25F-style): the description and the rule's name say what the rule is about; headings
 * name its topics; the body adds vocabulary at a lower weight.
 */
export const FIELD_WEIGHTS = { description: 3, name: 3, headings: 2, body: 0.5 } as const;
const K1 = 1.2;
const B = 0.75;

/**
 * BM25 over the rules of one build, with field-weighted term frequencies, normalised to 0..1 by the score
 * the rule would get from a prompt naming the strongest half of its description's and name's words. Deterministic: no
 * randomness, no clock, ties broken by id.
 */
export function scoreRelevance(query: string, docs: RelevanceDoc[], stemWord: Stem): RelevanceScore[] {
  if (docs.length === 0) return [];
  // Rules and prompts repeat their words: each is stemmed once (the stemmer runs a dozen regexps a word).
  const stem = memoize(stemWord);
  const concepts = queryConcepts(query, stem);
  const indexed = docs.map((doc) => indexDoc(doc, stem));
  const avgLength = indexed.reduce((sum, d) => sum + d.length, 0) / indexed.length || 1;
  const df = new Map<string, number>();
  for (const d of indexed) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => {
    const n = df.get(t) ?? 0;
    return Math.log(1 + (indexed.length - n + 0.5) / (n + 0.5));
  };
  const termScore = (d: IndexedDoc, t: string) => {
    const tf = d.tf.get(t) ?? 0;
    if (tf === 0) return 0;
    return (idf(t) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * d.length) / avgLength));
  };

  return indexed.map((d) => {
    // A group of related words counts once, by its best word, at a lower weight than a word the prompt says.
    const contributions = concepts
      .map((c) => {
        const [term, best] = c.terms.map((t) => [t, termScore(d, t)] as const).reduce((a, b) => (b[1] > a[1] ? b : a));
        return [c.related ? `~${term}` : term, best * c.weight] as const;
      })
      .filter(([, s]) => s > 0);
    const raw = contributions.reduce((sum, [, s]) => sum + s, 0);
    const ideal = idealScore([...d.core].map((t) => termScore(d, t)));
    const evidence = contributions.length === 1 ? ONE_WORD_WEIGHT : 1;
    const score = ideal > 0 ? Math.min(1, (evidence * raw) / ideal) : 0;
    const matched = contributions.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([t]) => t);
    return { id: d.id, score: Math.round(score * 1000) / 1000, matched };
  });
}

/**
 * What a fully relevant prompt scores: one naming the strongest half of the description's and name's words (at
 * least three). A prompt rarely names every word of a long description, so the whole set made long descriptions
 * unreachable (round 2: "add Spanish translations" scored 0.12 against a rule on translating strings and
 * formatting dates, numbers and currencies).
 */
function idealScore(coreScores: number[]): number {
  const k = Math.max(3, Math.ceil(coreScores.length / 2));
  return coreScores.sort((a, b) => b - a).slice(0, k).reduce((sum, s) => sum + s, 0);
}

/** One shared word is weak evidence ("rename" is not a migration): a rule matched by one concept counts half. */
const ONE_WORD_WEIGHT = 0.5;

interface IndexedDoc {
  id: string;
  tf: Map<string, number>;
  length: number;
  /** Terms of the description and name: what a fully relevant prompt would mention. */
  core: Set<string>;
}

function indexDoc(doc: RelevanceDoc, stem: Stem): IndexedDoc {
  const tf = new Map<string, number>();
  let length = 0;
  const add = (words: string[], weight: number) => {
    for (const w of words) {
      tf.set(w, (tf.get(w) ?? 0) + weight);
      length += weight;
    }
  };
  const headings = doc.body.split("\n").filter((l) => /^#{1,6}\s/.test(l)).join(" ");
  const description = terms(doc.description, stem);
  const name = terms(doc.name, stem);
  add(description, FIELD_WEIGHTS.description);
  add(name, FIELD_WEIGHTS.name);
  add(terms(headings, stem), FIELD_WEIGHTS.headings);
  add(terms(doc.body, stem), FIELD_WEIGHTS.body);
  return { id: doc.id, tf, length, core: new Set([...description, ...name]) };
}

