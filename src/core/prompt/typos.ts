import { editDistance } from "../nearest-name.js";

/**
 * A prompt word and a rule word are compared freely for a typo only when both are this long: shorter words lie one
 * edit from too many real words ("cache" / "catch", "route" / "router").
 */
export const TYPO_MIN_LENGTH = 6;
/**
 * Shorter typos (round 10: fresh-r9's "tokn", "alret") are read from this length, and only as a slip of the hand on a
 * rule word of the same length (a swap or a wrong letter) or one letter longer (a letter dropped), never shorter.
 */
export const SHORT_TYPO_MIN_LENGTH = 4;

/**
 * The rule word a prompt word probably meant ("migraiton" -> "migrations"): one edit away (a swap of two neighbours
 * is one edit), a plural's s aside, from the words of the rules' names and descriptions. Only a word that no rule holds
 * anywhere and no related-words group knows is asked about (the caller's part): a real word is not a typo. None when
 * no word is that close, or when words of two different stems are (the prompt's meaning is then a guess).
 */
export function typoTarget(word: string, vocabulary: ReadonlyMap<string, string>): string | undefined {
  if (word.length < SHORT_TYPO_MIN_LENGTH) return undefined;
  const short = word.length < TYPO_MIN_LENGTH;
  const bare = short ? word : singular(word);
  let found: string | undefined;
  let foundTerm: string | undefined;
  for (const [candidate, term] of vocabulary) {
    if (candidate === word) continue;
    if (short ? candidate.length < word.length || candidate.length > word.length + 1 : candidate.length < TYPO_MIN_LENGTH) continue;
    const other = short ? candidate : singular(candidate);
    if (Math.abs(other.length - bare.length) > 1 || editDistance(bare, other, 1) > 1) continue;
    if (foundTerm !== undefined && foundTerm !== term) return undefined;
    if (found === undefined || candidate < found) [found, foundTerm] = [candidate, term];
  }
  return found;
}

/** A word without a plural's final s ("migrations" -> "migration"; "class" stays). */
function singular(word: string): string {
  return word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word;
}
