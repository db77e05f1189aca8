/**
 * The 1-based line of each offset of `text` asked, asked in increasing order: counted on from the last one. A text
 * with thousands of findings (a hostile one) counted from its start for each took time quadratic in its length.
 */
export function lineCounter(text: string): (offset: number) => number {
  let line = 1;
  let next = text.indexOf("\n");
  let last = 0;
  return (offset) => {
    if (offset < last) [line, next] = [1, text.indexOf("\n")];
    last = offset;
    for (; next !== -1 && next < offset; next = text.indexOf("\n", next + 1)) line++;
    return line;
  };
}
