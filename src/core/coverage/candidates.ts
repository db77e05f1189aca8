/**
 * The coverage model's first phase: the `build --all` selection's candidates as the folders meet them — those that
 * may apply anywhere, by the folder they apply from, in selection order; which texts copy which; doctor's findings
 * by file.
 */
import type { Finding } from "../doctor/finding.js";
import { flattenImports } from "../parse/imports.js";
import { compareText } from "../rel-path.js";
import type { Candidate } from "../types.js";
import { textCopies, type TextCopies } from "./copies.js";
import type { CoverageInput } from "./model-types.js";

/** A candidate's key: its path, or `source:id` for an entry of ctxinject's own. */
export const keyOf = (c: Candidate): string => c.path ?? `${c.source}:${c.id}`;

export class CoverageCandidates {
  /** The candidates that may apply somewhere → their place in the selection. */
  readonly order = new Map<Candidate, number>();
  /** The candidates that may apply, by the folder they apply from ("" for the top and ctxinject's own entries). */
  readonly byAnchor = new Map<string, Candidate[]>();
  readonly byPath = new Map<string, Candidate>();
  /** Every instruction file's path and alias (what an agent's loader may find present). */
  readonly present = new Set<string>();
  readonly copies: TextCopies;
  /** doctor's findings by file. */
  readonly findingsOf = new Map<string, Finding[]>();
  /** The candidates that may apply → their row in the state table. */
  readonly indexOf: Map<Candidate, number>;
  /** Keys → their place in path order, to sort file lists with numbers. */
  readonly pathRank: Map<string, number>;
  /**
   * A file an agent file's `@imports` bring in → the files that import it, where select's dedup left the file out
   * as "imported by …" (its text is in the importing entry, expanded, which is what a hook sends); a file dedup
   * keeps on its own is not here.
   */
  readonly importersOf = new Map<string, Candidate[]>();

  constructor(input: CoverageInput) {
    const texts: Array<{ key: string; content: string }> = [];
    input.candidates.forEach((c, i) => {
      if (c.path !== null) {
        this.byPath.set(c.path, c);
        this.present.add(c.path);
        for (const alias of c.aliases ?? []) this.present.add(alias);
      }
      if (!mayApply(c)) return;
      if (c.imports !== undefined)
        for (const path of flattenImports(c.imports)) {
          const list = this.importersOf.get(path);
          if (list === undefined) this.importersOf.set(path, [c]);
          else if (!list.includes(c)) list.push(c);
        }
      this.order.set(c, i);
      texts.push({ key: keyOf(c), content: c.content });
      const anchor = c.path === null ? "" : input.anchorOf(c.path);
      const list = this.byAnchor.get(anchor);
      if (list === undefined) this.byAnchor.set(anchor, [c]);
      else list.push(c);
    });
    for (const path of [...this.importersOf.keys()]) {
      const imported = this.byPath.get(path);
      if (imported === undefined || imported.status !== "duplicate" || !imported.reason.startsWith("imported by ")) this.importersOf.delete(path);
    }
    this.copies = textCopies(texts);
    for (const f of input.findings) {
      const list = this.findingsOf.get(f.file);
      if (list === undefined) this.findingsOf.set(f.file, [f]);
      else list.push(f);
    }
    this.pathRank = new Map(
      [...this.order.keys()]
        .map((c) => keyOf(c))
        .sort(compareText)
        .map((key, i) => [key, i]),
    );
    this.indexOf = new Map([...this.order.keys()].map((c, i) => [c, i]));
  }
}

/** Out of every folder's picture: replaced, switched off, unreadable, empty READMEs, prompt-only entries. */
export function mayApply(c: Candidate): boolean {
  if (c.status === "overwritten" || c.status === "disabled" || c.status === "invalid") return false;
  if (c.kind === "keyword" || c.kind === "session" || c.kind === "manual") return false;
  // --all leaves out READMEs of folders that are no package roots ("unmatched"); a build for a file below reads
  // them. Only a README with nothing for an agent is out everywhere (core/sources/readme.ts words it so).
  if (c.status === "unmatched" && c.source === "directory-readme" && c.reason.startsWith("nothing for an agent")) return false;
  return true;
}
