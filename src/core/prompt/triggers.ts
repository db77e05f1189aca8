import { isStopWord, words, type Reading, type Stem } from "./words.js";

/**
 * A phrase the rule's author wrote for when it applies (issue 45): a quoted phrase in its description or
 * `when_to_use` ("Use when the user says 'let's commit'"), an entry of its `keywords:` / `aliases:`, or a part of a
 * "Use when ..." clause (or of `when_to_use`, which is one). The prompt saying one is evidence enough to inject.
 */
export interface Trigger {
  /** The phrase as the author wrote it (explain shows it). */
  text: string;
  /** Its words, stemmed (stop words kept for a phrase said as written, left out for a clause's part). */
  terms: string[];
  /**
   * A quoted phrase or an alias is matched as written: its words in a row ("let's commit", not "commit" alone). A
   * clause's part is a situation, not an utterance: its content words anywhere in the prompt.
   */
  inARow: boolean;
}

/** Quoted phrases: a quote after a space or an opening mark, closed before a space or punctuation ("user's" is none). */
const QUOTED = /(?:^|[\s([{,:;])(["'`\u2018\u201c])([^\n]{1,80}?)["'`\u2019\u201d](?=$|[\s)\]},.;:!?])/g;
/** "Use when", "use this skill when", "invoke it whenever", "apply for", up to the end of the sentence. */
const USE_WHEN = /\b(?:use|apply|invoke)\s+(?:(?:this|it|me)\s+(?:(?:skill|rule)\s+)?)?(?:only\s+)?(?:when(?:ever)?|if)\b([^.!?\n]*)/gi;
/** Where a clause splits into situations: commas, semicolons, "or", slashes. */
const CLAUSE_PARTS = /[,;/]|\bor\b|\be\.g\b|\bsuch as\b|\blike\b|\bincluding\b/i;
/** A clause's words that say who asks or how, not what about ("the user asks to", "when writing", "working on"). */
const CLAUSE_WORDS: ReadonlySet<string> = new Set(
  "ask asks asked asking say says said saying mention mentions mentioned mentioning request requests requested want wanted wanting tell tells told help helps helping writing creating editing working dealing doing agent assistant claude model task tasks question questions etc eg".split(
    " ",
  ),
);

/**
 * What is read for triggers: a description's first characters, and at most so many triggers (a repository's rule may
 * be megabytes; triggers are read on every prompt).
 */
const MAX_TRIGGER_TEXT = 2000;
const MAX_TRIGGERS = 64;

/** The triggers a rule's author wrote, in the order written: quoted phrases, clauses' parts, then aliases. */
export function triggersOf(description: string, whenToUse: string, aliases: readonly string[], stem: Stem, reading?: Reading): Trigger[] {
  const out: Trigger[] = [];
  const seen = new Set<string>();
  const add = (text: string, inARow: boolean) => {
    if (out.length >= MAX_TRIGGERS) return;
    const all = words(text, reading);
    const kept = inARow ? all : all.filter((w) => !isStopWord(w) && !CLAUSE_WORDS.has(w));
    if (!kept.some((w) => !isStopWord(w))) return;
    const terms = kept.map(stem);
    const key = `${inARow ? "=" : "~"}${terms.join(" ")}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ text: inARow ? text.trim() : withoutLeadingFiller(text), terms, inARow });
  };
  for (const [text, clause] of [
    [description.slice(0, MAX_TRIGGER_TEXT), false],
    [whenToUse.slice(0, MAX_TRIGGER_TEXT), true],
  ] as const) {
    if (text === "") continue;
    // A pattern only where its text can be: each costs a compile on every run.
    const unquoted = /["'`\u2018\u201c]/.test(text) ? text.replace(QUOTED, (_whole, _open: string, phrase: string) => (add(phrase, true), " , ")) : text;
    const clauses: string[] = clause ? [unquoted.replace(/^\s*(?:use\s+(?:it\s+|this\s+(?:skill\s+|rule\s+)?)?)?when(?:ever)?\b/i, "")] : [];
    if (/\b(?:use|apply|invoke)\b/i.test(unquoted)) for (const m of unquoted.matchAll(USE_WHEN)) clauses.push(m[1]!);
    for (const c of clauses) for (const part of c.split(CLAUSE_PARTS)) add(part, false);
  }
  for (const alias of aliases) add(alias.slice(0, MAX_TRIGGER_TEXT), true);
  return out;
}

/** A clause's part without the words before its topic ("the user mentions release notes" -> "release notes"). */
function withoutLeadingFiller(part: string): string {
  let text = part.trim();
  for (let m = /^([A-Za-z']+)\s+/.exec(text); m !== null; m = /^([A-Za-z']+)\s+/.exec(text)) {
    const word = m[1]!.toLowerCase();
    if (!isStopWord(word) && !CLAUSE_WORDS.has(word)) break;
    text = text.slice(m[0].length);
  }
  return text;
}

/** A prompt's words in order (stemmed, stop words kept), with where each word is: a phrase is looked for where its first word is. */
export class SaidWords {
  readonly at = new Map<string, number[]>();
  constructor(readonly words: readonly string[]) {
    words.forEach((w, i) => {
      const list = this.at.get(w);
      if (list === undefined) this.at.set(w, [i]);
      else list.push(i);
    });
  }
}

/** The first trigger the prompt says: `said`, its words in order; `terms`, its content words (stemmed). */
export function saidTrigger(triggers: readonly Trigger[], said: SaidWords, terms: ReadonlySet<string>): Trigger | undefined {
  return triggers.find((t) => (t.inARow ? inARow(t.terms, said) : t.terms.every((w) => terms.has(w))));
}

function inARow(phrase: readonly string[], said: SaidWords): boolean {
  for (const i of said.at.get(phrase[0]!) ?? []) {
    let j = 1;
    while (j < phrase.length && said.words[i + j] === phrase[j]) j++;
    if (j === phrase.length) return true;
  }
  return false;
}
