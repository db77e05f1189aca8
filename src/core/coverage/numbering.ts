/**
 * The coverage model's entries and findings, each numbered once, so a cell is known by a short key of numbers
 * (JSON-stringifying 90k cells to find the 30k different ones took most of a 100k-file tree's run).
 */
import type { Finding } from "../doctor/finding.js";
import { compareText } from "../rel-path.js";
import type { Applied } from "./folder-answers.js";
import { freshObjects } from "./lists.js";
import type { CellFinding, CoverageItem } from "./model-types.js";

class Item implements CoverageItem {
  file: string;
  tokens: number;
  reason: string;
  declare by?: string;
  constructor(file: string, tokens: number, reason: string, by: string | undefined) {
    this.file = file;
    this.tokens = tokens;
    this.reason = reason;
    if (by !== undefined) this.by = by;
  }
}

/** A summing-up finding made: its agent, its files' serials (start and length) and its number. */
class Summary {
  constructor(
    readonly agent: number,
    readonly at: number,
    readonly n: number,
    readonly id: number,
  ) {}
}

/** A finding naming the files it sums up (fields in the JSON's order). */
class SummaryFinding implements CellFinding {
  severity: Finding["severity"] = "warning";
  kind: string;
  file: string;
  message: string;
  files: string[];
  constructor(kind: string, files: string[], message: string) {
    this.kind = kind;
    this.file = files[0]!;
    this.message = message;
    this.files = files;
  }
}

const applyHere = (n: number) => (n === 1 ? "1 file that applies here" : `${n} files that apply here`);

export class Numbering {
  readonly items: CoverageItem[] = [];
  readonly findings: CellFinding[] = [];
  private readonly itemIds = new Map<string, Map<string, number>>();
  private readonly findingIds = new Map<string, number>();
  private readonly doctorIds = new Map<Finding, number>();
  /** A finding that sums up files, known by its kind, agent and the files (compared as numbers, no long strings). */
  // Each known by the serials of its files' Applied, in one typed array (a copy of the list per summary was ~3 MB
  // of a 100k-file tree's model, kept to the end): its start there and its length.
  private readonly summaries = new Map<number, Summary[]>();
  private serialsOf = new Int32Array(1 << 12);
  private serialsEnd = 0;

  constructor(
    /** The agents' names, in the model's order. */
    private readonly names: readonly string[],
  ) {}

  itemId(file: string, tokens: number, reason: string, by?: string): number {
    let byReason = this.itemIds.get(file);
    if (byReason === undefined) this.itemIds.set(file, (byReason = new Map()));
    const key = by === undefined ? reason : `${by}\n${reason}`;
    let id = byReason.get(key);
    if (id === undefined) {
      id = this.items.length;
      this.items.push(new Item(file, tokens, reason, by));
      byReason.set(key, id);
    }
    return id;
  }

  findingId(f: CellFinding): number {
    const key = `${f.kind}\n${f.file}\n${f.line ?? ""}\n${f.severity}\n${f.message}\n${f.files?.join("\n") ?? ""}`;
    let id = this.findingIds.get(key);
    if (id === undefined) {
      id = this.findings.length;
      this.findings.push(f);
      this.findingIds.set(key, id);
    }
    return id;
  }

  /** A doctor finding as a cell's, numbered once. */
  doctorId(f: Finding): number {
    let id = this.doctorIds.get(f);
    if (id === undefined) this.doctorIds.set(f, (id = this.findingId(cellFinding(f))));
    return id;
  }

  /** The finding that `files` apply here and agent `agent` never sees them (-1: none of the agents does). */
  summaryId(agent: number, files: Applied[], name: string): number {
    let h = Math.imul(0x811c9dc5 ^ (agent + 2), 0x01000193);
    for (const a of files) h = Math.imul(h ^ a.pathRank, 0x01000193);
    // Kept within a small integer, so a map key is no boxed number.
    const hash = h & 0x3fffffff;
    let same = this.summaries.get(hash);
    if (same === undefined) this.summaries.set(hash, (same = freshObjects()));
    const found = same.find((s) => s.agent === agent && s.n === files.length && this.sameSerials(s.at, files));
    if (found !== undefined) return found.id;
    const id = this.findings.length;
    const paths = files.map((a) => a.key);
    // The count from `files`: the mapped list's elements kind varies, and reading its length threw summaryId away.
    const n = files.length;
    this.findings.push(
      agent < 0
        ? new SummaryFinding(
            "no-agent-reads",
            paths,
            `${applyHere(n)}: none of ${this.names.join(", ")} reads ${n === 1 ? "it" : "them"} (none loads it by itself or has ctxinject's hook)`,
          )
        : new SummaryFinding("not-seen", paths, `${applyHere(n)} for other agents: ${name} never sees ${n === 1 ? "it" : "them"}`),
    );
    if (this.serialsEnd + files.length > this.serialsOf.length) {
      const bigger = new Int32Array(Math.max(2 * this.serialsOf.length, this.serialsEnd + files.length));
      bigger.set(this.serialsOf.subarray(0, this.serialsEnd));
      this.serialsOf = bigger;
    }
    for (let i = 0; i < files.length; i++) this.serialsOf[this.serialsEnd + i] = files[i]!.serial;
    same.push(new Summary(agent, this.serialsEnd, files.length, id));
    this.serialsEnd += files.length;
    return id;
  }

  private sameSerials(at: number, files: readonly Applied[]): boolean {
    for (let i = 0; i < files.length; i++) if (this.serialsOf[at + i] !== files[i]!.serial) return false;
    return true;
  }

  /** Findings in a cell's order: by file, line, kind, message. */
  readonly byFinding = (x: number, y: number): number => {
    const a = this.findings[x]!;
    const b = this.findings[y]!;
    return compareText(a.file, b.file) || (a.line ?? 0) - (b.line ?? 0) || compareText(a.kind, b.kind) || compareText(a.message, b.message);
  };
}

function cellFinding(f: Finding): CellFinding {
  return f.line !== undefined
    ? { severity: f.severity, kind: f.kind, file: f.file, line: f.line, message: f.message }
    : { severity: f.severity, kind: f.kind, file: f.file, message: f.message };
}
