import { defaultConfig, type Config } from "../../src/core/config.js";
import { selectContext, type SelectInput } from "../../src/core/select.js";
import type { SourceFile } from "../../src/core/types.js";

/** A tree of instruction files as plain values: { path: text }. */
export function files(tree: Record<string, string>): SourceFile[] {
  return Object.entries(tree).map(([path, text]) => ({ path, text }));
}

export function select(tree: Record<string, string>, options: Partial<SelectInput> & { configure?: (c: Config) => void } = {}) {
  const config = options.config ?? defaultConfig();
  options.configure?.(config);
  return selectContext({ files: files(tree), targets: [], ...options, config });
}

export function statusOf(selection: ReturnType<typeof select>, id: string): string {
  const candidate = selection.candidates.find((c) => c.id === id);
  if (!candidate) throw new Error(`no candidate ${id}; have ${selection.candidates.map((c) => c.id).join(", ")}`);
  return candidate.status;
}

export function reasonOf(selection: ReturnType<typeof select>, id: string): string {
  return selection.candidates.find((c) => c.id === id)!.reason;
}
