import { memoize } from "../memo.js";
import { type Concept, queryConcepts, RELATED_WEIGHT, surfaceForms, terms, type Stem } from "./words.js";

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
  /** The prompt's words that matched, as they were stemmed, strongest first (`~stem` for a related word). */
  matched: string[];
  /**
   * The same evidence as people wrote it, in the same order: a prompt's or path's own word as the prompt or path
   * wrote it (lowercased), and for a related word the rule's word as the rule wrote it (`related`). explain shows
   * these: `packag` and `~statu` say nothing to a reader.
   */
  words: Array<{ word: string; related: boolean }>;
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
  const bm25 = (weight: number, tf: number, d: IndexedDoc) => (weight * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * d.length) / avgLength));
  const termScore = (d: IndexedDoc, t: string) => {
    const tf = d.tf.get(t) ?? 0;
    return tf === 0 ? 0 : bm25(idf(t), tf, d);
  };
  // A prompt word and its related words are one term (BM25 over a synonym set): an occurrence of a related word counts
  // RELATED_WEIGHT of one of the word itself, and the term is as rare as the words that made its frequency in this
  // rule. One prompt word is one piece of evidence however many of its related words a rule has; three prompt words
  // of one topic are three. Labelled by the word that made most of its weight, marked ~ when it is a related word.
  const conceptMatch = (d: IndexedDoc, c: Concept): [label: string, score: number] => {
    let tf = d.tf.get(c.term) ?? 0;
    let weighted = tf * idf(c.term);
    let label = c.term;
    let best = weighted;
    for (const r of c.related) {
      const n = (d.tf.get(r) ?? 0) * RELATED_WEIGHT;
      if (n === 0) continue;
      const w = n * idf(r);
      tf += n;
      weighted += w;
      if (w > best) [best, label] = [w, `~${r}`];
    }
    return [label, tf === 0 ? 0 : bm25(weighted / tf, tf, d)];
  };
  // The prompt's words as written are looked up once, for what matched (explain's evidence); a rule's were kept as it was read.
  let said: Map<string, string> | undefined;
  const asWritten = (d: IndexedDoc, labels: string[]) => {
    if (labels.length === 0) return [];
    said ??= surfaceForms(query, stem, new Set(concepts.map((c) => c.term)));
    return labels.map((l) =>
      l.startsWith("~") ? { word: d.written.get(l.slice(1)) ?? l.slice(1), related: true } : { word: said!.get(l) ?? l, related: false },
    );
  };

  return indexed.map((d) => {
    // [label, score, whether the prompt's own word is one of the rule's name or description]
    const contributions = concepts.map((c) => [...conceptMatch(d, c), d.core.has(c.term)] as const).filter(([, s]) => s > 0);
    const raw = contributions.reduce((sum, [, s]) => sum + s, 0);
    const ideal = idealScore([...d.core].map((t) => termScore(d, t)));
    // One shared word is weak evidence ("rename" is not a migration), unless it is a word of the rule's own name or
    // description ("remove the old_checkout flag" is about feature flags).
    const single = contributions.length === 1 && !contributions[0]![2];
    const evidence = single ? ONE_WORD_WEIGHT : 1;
    const score = ideal > 0 ? Math.min(1, (evidence * raw) / ideal) : 0;
    const matched = [...contributions].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([t]) => t);
    return { id: d.id, score: Math.round(score * 1000) / 1000, matched, words: asWritten(d, matched) };
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

/** What a rule matched by one prompt word, not a word of its name or description, counts. */
const ONE_WORD_WEIGHT = 0.5;

interface IndexedDoc {
  id: string;
  tf: Map<string, number>;
  length: number;
  /** Terms of the description and name: what a fully relevant prompt would mention. */
  core: Set<string>;
  /** Each term's first word as the rule wrote it (lowercased): a related word's evidence is shown in the rule's words. */
  written: Map<string, string>;
}

function indexDoc(doc: RelevanceDoc, stemWord: Stem): IndexedDoc {
  const written = new Map<string, string>();
  const stem: Stem = (word) => {
    const term = stemWord(word);
    if (!written.has(term)) written.set(term, word);
    return term;
  };
  const tf = new Map<string, number>();
  let length = 0;
  const add = (words: string[], weight: number) => {
    for (const w of words) {
      tf.set(w, (tf.get(w) ?? 0) + weight);
      length += weight;
    }
  };
  const headings = doc.body.split("\n").filter(isHeading).join(" ");
  const description = terms(doc.description, stem);
  const name = terms(doc.name, stem);
  add(description, FIELD_WEIGHTS.description);
  add(name, FIELD_WEIGHTS.name);
  add(terms(headings, stem), FIELD_WEIGHTS.headings);
  add(terms(doc.body, stem), FIELD_WEIGHTS.body);
  return { id: doc.id, tf, length, core: new Set([...description, ...name]), written };
}

/** A markdown heading line: one to six `#` and a space (a string check: each regexp costs a compile on every run). */
function isHeading(line: string): boolean {
  let hashes = 0;
  while (hashes < line.length && line.charCodeAt(hashes) === 35) hashes++;
  return hashes >= 1 && hashes <= 6 && hashes < line.length && line[hashes]!.trim() === "";
}
