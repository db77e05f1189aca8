/** `coverage --format json`: the model as data, for tools (compact: `jq .` indents it). */
import { gateName, namesNeedGate } from "../text-gate.js";
import type { CoverageDiff } from "./diff.js";
import type { CoverageModel } from "./model.js";

/**
 * The root, the model and with `--base` the change, every string gated as a name (core/text-gate.ts): one by one,
 * where an escape over the whole text would hide a control from a tool reading a string. Compact: indented, 100k
 * folders' cells were half its bytes and time.
 */
export function renderCoverageJson(root: string, model: CoverageModel, diff?: CoverageDiff): string {
  return `${gatedJson(() => ({ root, ...model, ...(diff !== undefined && { base: diff }) }))}\n`;
}

/** JSON with every string gated: stringified as it is first, again string by string only when that needs it. */
export function gatedJson(value: () => unknown): string {
  const plain = JSON.stringify(value());
  if (!namesNeedGate([plain]) && !/\\u00[0-9a-f]{2}/.test(plain)) return plain;
  // A large tree's model repeats its strings (reasons, folders, messages) thousands of times: each is gated once.
  const gated = new Map<string, string>();
  const gate = (v: string) => {
    let out = gated.get(v);
    if (out === undefined) gated.set(v, (out = gateName(v)));
    return out;
  };
  return JSON.stringify(value(), (_key, v: unknown) => (typeof v === "string" ? gate(v) : v));
}
