export type CountTokens = (text: string) => number;

/**
 * About four characters a token for ASCII; every non-ASCII code point counts as a token of its own,
 * because BPE vocabularies split CJK, emoji and accented text far more finely than English.
 */
export const approxTokens: CountTokens = (text) => {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) ascii++;
    else if (code >= 0xdc00 && code <= 0xdfff) continue; // low half of a surrogate pair: counted with its high half
    else other++;
  }
  return Math.ceil(ascii / 4) + other;
};
