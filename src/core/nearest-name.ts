/**
 * The name among `names` nearest to a mistyped one (`userz.ts` -> `users.ts`), or null when none is close: a
 * suggestion is worth printing only when it is probably what was meant. Case differences count as one edit each.
 */
export function nearestName(name: string, names: readonly string[]): string | null {
  // Up to two edits for short names, a quarter of the length for long ones.
  const limit = Math.max(2, Math.floor(name.length / 4));
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const candidate of names) {
    if (candidate === name || Math.abs(candidate.length - name.length) >= bestDistance) continue;
    const d = editDistance(name, candidate, bestDistance);
    // Ties go to the first in code-unit order, so the answer does not depend on the directory's listing order.
    if (d < bestDistance || (d === bestDistance && best !== null && candidate < best)) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Levenshtein distance, with an adjacent swap counted as one edit; stops early once every path exceeds `cap`. */
export function editDistance(a: string, b: string, cap = Infinity): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let smallest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
      if (d < smallest) smallest = d;
    }
    if (smallest > cap) return smallest;
    before = previous;
    previous = row;
  }
  return previous[b.length]!;
}
