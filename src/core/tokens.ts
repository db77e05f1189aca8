export type CountTokens = (text: string) => number;

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * About four characters a token for ASCII; every non-ASCII code point counts as a token of its own,
 * because BPE vocabularies split CJK, emoji and accented text far more finely than English.
 */
export const approxTokens: CountTokens = (text) => {
  // Nearly every instruction file is ASCII: one native scan says so, instead of a loop over each character.
  if (!NON_ASCII.test(text)) return Math.ceil(text.length / 4);
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

/** The length of text in UTF-8 bytes, counted without encoding it. */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
