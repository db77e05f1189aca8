import { memoize } from "../memo.js";
import { SHORT_TYPO_MIN_LENGTH, typoTarget, TYPO_MIN_LENGTH } from "./typos.js";
import { SaidWords, saidTrigger, triggersOf, type Trigger } from "./triggers.js";
import { type Concept, contentWords, queryConcepts, type Reading, RELATED_WEIGHT, surfaceForms, terms, words as wordsOf, type Stem } from "./words.js";

/** An agent-requested rule as the scorer sees it. */
export interface RelevanceDoc {
  id: string;
  name: string;
  description: string;
  body: string;
  /** Claude Code's `when_to_use`: when the author says the rule applies. */
  whenToUse?: string;
  /** The author's own words for the topic (`keywords:` / `aliases:` frontmatter). */
  aliases?: string[];
  /**
   * A skill: its name, description and triggers are the evidence; its body is what the agent reads once it picks the
   * skill, scored at SKILL_BODY_WEIGHT only (issue 45).
   */
  skill?: boolean;
}

export interface RelevanceScore {
  id: string;
  /** 0..1: how much of what the rule is about the prompt speaks of, related words included. */
  score: number;
  /** The same on the prompt's own words only: what injection is decided on (related words bring a rule only as far as the likely tier). */
  direct: number;
  /** The prompt's words that matched, as they were stemmed, strongest first (`~stem` for a related word). */
  matched: string[];
  /**
   * The same evidence as people wrote it, in the same order: a prompt's or path's own word as the prompt or path
   * wrote it (lowercased), and for a related word the rule's word as the rule wrote it (`related`). explain shows
   * these: `packag` and `~statu` say nothing to a reader.
   */
  words: Array<{ word: string; related: boolean }>;
  /**
   * What would inject the rule (issue 45), on the prompt's own words: a trigger its author wrote, or two distinct
   * content words of its name, description, `when_to_use` or aliases (as written). Undefined when there is neither:
   * body words, related words, typo readings and a single description word reach the likely tier at most.
   */
  strong?: { trigger: string } | { words: string[] };
  /** Whether any evidence (the prompt's words, related words, typo readings) is in its name, description, triggers or aliases: the likely tier needs it. */
  named: boolean;
}

/**
 * The scorer's special cases, each of which an evaluation can turn off to measure what it earns (`npm run relevance --
 * --without=related,typo,phrases`; docs/relevance.md's table): the related-words table, typo readings and phrases read
 * as one word. Round 13 removed comparatives (they earned nothing on fresh-r12) and the per-field weights (they cost
 * reach and precision there).
 */
export const MECHANISMS = ["related", "typo", "phrases"] as const;
export type Mechanism = (typeof MECHANISMS)[number];

export interface ScoreOptions {
  without?: ReadonlySet<Mechanism>;
}

/**
 * A skill's body weighs this much against its name and description, which weigh 1 as every field of a rule does: the
 * body is what the agent reads once it picks the skill, and the words it chose it by are its name and description
 * (issue 45). Rules' fields used to weigh 3 (name, description, `when_to_use`, aliases), 2 (headings) and 0.5 (body);
 * on fresh-r12, one weight for every field gave precision 0.93 and reach 0.46 against 0.90 and 0.43.
 */
export const SKILL_BODY_WEIGHT = 0.5;
type Field = "name" | "description" | "whenToUse" | "aliases" | "body";
const FIELDS: readonly Field[] = ["name", "description", "whenToUse", "aliases", "body"];
/** Length normalisation per field: none for the short fields an author writes as a list or a line, BM25's usual 0.75 for prose. */
const FIELD_B: Record<Field, number> = { name: 0, description: 0.3, whenToUse: 0.3, aliases: 0, body: 0.75 };
const K1 = 1.2;

/**
 * BM25 over the rules of one build, with field-weighted term frequencies, normalised to 0..1 by the score
 * the rule would get from a prompt naming the strongest half of its description's and name's words. Deterministic: no
 * randomness, no clock, ties broken by id.
 */
export function scoreRelevance(query: string, docs: RelevanceDoc[], stemWord: Stem, options: ScoreOptions = {}): RelevanceScore[] {
  if (docs.length === 0) return [];
  const without = options.without ?? new Set<Mechanism>();
  const reading: Reading = { phrases: !without.has("phrases"), related: !without.has("related") };
  // Rules and prompts repeat their words: each is stemmed once (the stemmer runs a dozen regexps a word).
  const stem = memoize(stemWord);
  const indexed = indexDocs(docs, stem, reading);
  const df = new Map<string, number>();
  for (const d of indexed) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const asked = queryConcepts(query, stem, reading);
  const { concepts, typos } = without.has("typo")
    ? { concepts: asked, typos: new Map<string, { written: string; meant: string }>() }
    : readTypos(query, asked, docs, df, stem, reading);
  // The prompt's own words (typo readings are guesses), and all its words in order, for the author's triggers.
  const own = new Set(concepts.filter((c) => c.guessed !== true).map((c) => c.term));
  let inOrder: SaidWords | undefined;
  const idf = (t: string) => {
    const n = df.get(t) ?? 0;
    return Math.log(1 + (indexed.length - n + 0.5) / (n + 0.5));
  };
  // The weighted, length-normalised frequency saturates once (BM25F).
  const bm25 = (weight: number, tf: number, _d: IndexedDoc) => (weight * tf * (K1 + 1)) / (tf + K1);
  const termScore = (d: IndexedDoc, t: string) => {
    const tf = d.tf.get(t) ?? 0;
    return tf === 0 ? 0 : bm25(idf(t), tf, d);
  };
  // A prompt word and its related words are one term (BM25 over a synonym set): an occurrence of a related word counts
  // RELATED_WEIGHT of one of the word itself, and the term is as rare as the words that made its frequency in this
  // rule. One prompt word is one piece of evidence however many of its related words a rule has; three prompt words
  // of one topic are three. Labelled by the word that made most of its weight, marked ~ when it is a related word.
  const conceptMatch = (d: IndexedDoc, c: Concept): [label: string, score: number, direct: number, core: boolean] => {
    const own = d.tf.get(c.term) ?? 0;
    let core = d.core.has(c.term);
    let tf = own;
    let weighted = own * idf(c.term);
    let label = c.term;
    let best = weighted;
    for (const r of c.related) {
      const n = (d.tf.get(r) ?? 0) * RELATED_WEIGHT;
      if (n === 0) continue;
      const w = n * idf(r);
      tf += n;
      weighted += w;
      if (!core && d.core.has(r)) core = true;
      if (w > best) [best, label] = [w, `~${r}`];
    }
    // The word alone as well: a rule holding the prompt's word and its related words gains from both, and injection
    // is decided on the word alone (the related words used to leak into it whenever the word itself weighed most).
    // A typo read as a rule's word is a guess ("changing" is one edit from "charging"): like a related word, it lifts
    // the rule into the likely tier at most.
    return [label, tf === 0 ? 0 : bm25(weighted / tf, tf, d), own === 0 || c.guessed ? 0 : bm25(idf(c.term), own, d), core];
  };
  // The prompt's words as written are looked up once, for what matched (explain's evidence); a rule's were kept as it was read.
  let said: Map<string, string> | undefined;
  const asWritten = (d: IndexedDoc, labels: string[]) => {
    if (labels.length === 0) return [];
    if (said === undefined) {
      said = surfaceForms(query, stem, new Set(concepts.map((c) => c.term)), reading);
      for (const [term, typo] of typos) said.set(term, `${typo.written} (read as ${typo.meant})`);
    }
    return labels.map((l) =>
      l.startsWith("~") ? { word: d.written.get(l.slice(1)) ?? l.slice(1), related: true } : { word: said!.get(l) ?? l, related: false },
    );
  };

  const scoreOf = (d: IndexedDoc, ideal: number) => {
    const matches = concepts.map((c) => conceptMatch(d, c));
    const normalised = (found: number[]) => (ideal > 0 ? Math.min(1, found.reduce((sum, s) => sum + s, 0) / ideal) : 0);
    // [label, score, whether the prompt's word, or a related word of it the rule holds, is one of the rule's core words]
    const contributions = matches.filter(([, s]) => s > 0).map(([label, s, , core]) => [label, s, core] as const);
    return { contributions, score: normalised(contributions.map(([, s]) => s)), direct: normalised(matches.map(([, , own]) => own)) };
  };
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return indexed.map((d) => {
    const ideal = idealScore([...d.ideal].map((t) => termScore(d, t)));
    const { contributions, score, direct } = scoreOf(d, ideal);
    const matched = [...contributions].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([t]) => t);
    const result: RelevanceScore = {
      id: d.id,
      score: round(score),
      direct: round(direct),
      matched,
      words: asWritten(d, matched),
      named: contributions.some(([, , core]) => core),
    };
    const strong = strongEvidence(d);
    if (strong !== undefined) result.strong = strong;
    return result;
  });

  function strongEvidence(d: IndexedDoc): RelevanceScore["strong"] {
    if (d.triggers.length > 0) {
      inOrder ??= new SaidWords(wordsOf(query, reading).map(stem));
      const trigger = saidTrigger(d.triggers, inOrder, own);
      if (trigger !== undefined) return { trigger: trigger.text };
    }
    const named = [...own].filter((t) => d.core.has(t));
    if (named.length < 2) return undefined;
    return { words: asWritten(d, named).map((w) => w.word) };
  }
}

/**
 * The prompt's concepts with its typos read as the rule words they probably meant: a word of six letters or more
 * (four with a rule word of its length or one longer, round 10) that no rule holds anywhere and no related-words group
 * knows, one edit from a word of a rule's name or description ("write a migraiton" reached nothing in round 7). The word read is a guess: it scores like the prompt's
 * own word, with its own related words, but never injects (a real word the rules do not hold, "changing", is one edit
 * from "charging"). `typos`: each corrected term, as written and as read.
 */
function readTypos(
  query: string,
  concepts: Concept[],
  docs: RelevanceDoc[],
  df: ReadonlyMap<string, number>,
  stem: Stem,
  reading: Reading,
): { concepts: Concept[]; typos: Map<string, { written: string; meant: string }> } {
  const typos = new Map<string, { written: string; meant: string }>();
  const unknown = concepts.filter((c) => c.term.length >= SHORT_TYPO_MIN_LENGTH - 1 && !df.has(c.term) && c.related.length === 0);
  if (unknown.length === 0) return { concepts, typos };
  // The rules' name and description words as written, each with its stem (read only when a prompt word is unknown).
  const vocabulary = new Map<string, string>();
  for (const doc of docs)
    for (const w of contentWords(`${doc.name} ${doc.description}`, reading))
      if (w.length >= SHORT_TYPO_MIN_LENGTH && !vocabulary.has(w)) vocabulary.set(w, stem(w));
  const written = surfaceForms(query, stem, new Set(unknown.map((c) => c.term)), reading);
  const said = new Set(concepts.map((c) => c.term));
  const read = new Map<string, Concept | null>();
  for (const c of unknown) {
    const word = written.get(c.term);
    // A short word whose ending the stemmer knows ("parks", "dated") is a real word, not a slip on a rule's word.
    if (word !== undefined && word.length < TYPO_MIN_LENGTH && stem(word) !== word) continue;
    const meant = word === undefined ? undefined : typoTarget(word, vocabulary);
    if (word === undefined || meant === undefined) continue;
    const term = vocabulary.get(meant)!;
    // A typo of a word the prompt also spells right is the same piece of evidence, not a second one.
    if (said.has(term)) {
      read.set(c.term, null);
      continue;
    }
    said.add(term);
    const related = (queryConcepts(meant, stem, reading)[0]?.related ?? []).filter((t) => !said.has(t));
    read.set(c.term, { term, related, guessed: true });
    typos.set(term, { written: word, meant });
  }
  if (read.size === 0) return { concepts, typos };
  const out: Concept[] = [];
  for (const c of concepts) {
    const r = read.get(c.term);
    if (r === undefined) out.push(c);
    else if (r !== null) out.push(r);
  }
  return { concepts: out, typos };
}

/**
 * What a fully relevant prompt scores: one naming the strongest half of the description's and name's words (at
 * least three). A prompt rarely names every word of a long description, so the whole set made long descriptions
 * unreachable (round 2: "add Spanish translations" scored 0.12 against a rule on translating strings and
 * formatting dates, numbers and currencies).
 */
function idealScore(coreScores: number[]): number {
  const k = Math.max(3, Math.ceil(coreScores.length / 2));
  return coreScores
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, s) => sum + s, 0);
}

interface IndexedDoc {
  id: string;
  /** Each term's frequency, weighted and length-normalised per field, summed over the fields. */
  tf: Map<string, number>;
  /** Terms of the description, name, `when_to_use` and aliases: what a fully relevant prompt would mention. */
  core: Set<string>;
  /** Terms of the description and name: the words the normalisation's ideal prompt names. */
  ideal: Set<string>;
  /** Each term's first word as the rule wrote it (lowercased): a related word's evidence is shown in the rule's words. */
  written: Map<string, string>;
  /** The phrases its author wrote for when it applies. */
  triggers: Trigger[];
}

/** Every rule's fields as terms, then each field's frequencies normalised by its length against that field's average. */
function indexDocs(docs: RelevanceDoc[], stemWord: Stem, reading: Reading): IndexedDoc[] {
  const fielded = docs.map((doc) => {
    const written = new Map<string, string>();
    const stem: Stem = (word) => {
      const term = stemWord(word);
      if (!written.has(term)) written.set(term, word);
      return term;
    };
    const fields: Record<Field, string[]> = {
      name: terms(doc.name, stem, reading),
      description: terms(doc.description, stem, reading),
      whenToUse: terms(doc.whenToUse ?? "", stem, reading),
      aliases: terms((doc.aliases ?? []).join(" \n "), stem, reading),
      body: terms(doc.body, stem, reading),
    };
    return { doc, written, fields };
  });
  const average = {} as Record<Field, number>;
  for (const f of FIELDS) average[f] = fielded.reduce((sum, d) => sum + d.fields[f].length, 0) / fielded.length || 1;
  return fielded.map(({ doc, written, fields }) => {
    const tf = new Map<string, number>();
    for (const f of FIELDS) {
      const words = fields[f];
      if (words.length === 0) continue;
      const b = FIELD_B[f];
      const weight = f === "body" && doc.skill === true ? SKILL_BODY_WEIGHT : 1;
      const each = weight / (1 - b + (b * words.length) / average[f]);
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + each);
    }
    const ideal = new Set([...fields.description, ...fields.name]);
    const core = new Set([...ideal, ...fields.whenToUse, ...fields.aliases]);
    return { id: doc.id, tf, core, ideal, written, triggers: triggersOf(doc.description, doc.whenToUse ?? "", doc.aliases ?? [], stemWord, reading) };
  });
}
