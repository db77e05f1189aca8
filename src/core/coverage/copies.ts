/**
 * Which instruction texts another file carries: the same text (trimmed), or most of it (a near copy, or a text
 * nine tenths inside a longer one: core/phases/near-copy.ts, the measure dedup sends texts once by). An agent that
 * gets a rule's text through another file has seen that rule, and ctxinject's hook does not send it a second copy.
 * Texts are grouped first, so a text kept in a thousand packages is compared once.
 */
import { LineIndex, significantLines } from "../phases/near-copy.js";

export interface TextCopies {
  /** The group of a key (one group per distinct trimmed text). */
  groupOf: ReadonlyMap<string, number>;
  /** Per group, the other groups whose text holds nine tenths of its lines (none for a short text). */
  holders: ReadonlyArray<readonly number[]>;
}

export function textCopies(items: ReadonlyArray<{ key: string; content: string }>): TextCopies {
  const groupOf = new Map<string, number>();
  const byText = new Map<string, number>();
  const texts: string[] = [];
  for (const { key, content } of items) {
    const text = content.trim();
    let group = byText.get(text);
    if (group === undefined) {
      group = texts.length;
      byText.set(text, group);
      texts.push(text);
    }
    groupOf.set(key, group);
  }
  const index = new LineIndex<number>();
  const lines = texts.map((text) => significantLines(text));
  lines.forEach((list, group) => index.add(group, list));
  // Each list pushed into a literal, so all have one element kind (`map` gave the empty ones another, and the
  // folder loop reading them was recompiled for it).
  const holders = lines.map((list, group) => {
    const out: number[] = [];
    for (const h of index.holders(list, group)) out.push(h.item);
    return out;
  });
  return { groupOf, holders };
}
