/**
 * The one gate every text from a repository passes before anyone reads it.
 *
 * The gate (hidden.ts, then redact.ts): file texts (and with them descriptions, globs and everything parsed out of
 * them), the `content` a config gives a keyword mode or a custom entry, and the names and paths of files and folders
 * lose what a reviewer cannot see (invisible characters, controls, escape sequences) and their credentials.
 * select.ts gates texts before anything is parsed; names are gated where a document, an explain table, a doctor
 * finding or a coverage report shows them (their raw form stays the key the run works with: a hostile name is
 * still that file). Nearly every text is clean: one scan says so (mayHoldHidden, mayHoldCredentials).
 *
 * The escaper (core/terminal-escape.ts, at the CLI's sink): a terminal acts on what it is sent, so a control that
 * reached it anyway (an error message quoting what the operating system said, a text the gate never saw) is shown
 * as `\x1b`, never obeyed.
 */
import { describeHidden, mayHoldHidden, mergeHidden, stripHidden, type HiddenCharacters } from "./hidden.js";
import { mayHoldCredentials, redactSecrets, type Redaction } from "./redact.js";

export interface GatedText {
  text: string;
  /** What was removed as hidden, or null. */
  hidden: HiddenCharacters | null;
  redactions: Redaction[];
}

export interface GateOptions {
  /** False only from the user's own config (`hiddenCharacters: keep`). */
  strip?: boolean;
  /** False only from the user's own config (`redact: false`). */
  redact?: boolean;
}

/** A text from a repository without hidden characters, then without credentials. */
export function gateText(text: string, options: GateOptions = {}): GatedText {
  return redactStripped(stripStep(text, options), options);
}

/** The gate's first step: a text without hidden characters (as it is when the user keeps them), and what went. */
interface StrippedText {
  text: string;
  hidden: HiddenCharacters | null;
}

/**
 * The gate's first step alone, for a caller that looks at many stripped texts together before the second
 * (select's files: one test of them joined for a credential's hint).
 */
export function stripStep(text: string, options: GateOptions = {}): StrippedText {
  const stripped = options.strip === false ? null : stripHidden(text);
  return stripped === null ? { text, hidden: null } : { text: stripped.text, hidden: stripped.found };
}

/**
 * The gate's second step, on what stripStep made: credentials out (`test`: how the text is first tested for hints,
 * see redactSecrets), then what a marker leaves behind.
 */
export function redactStripped(stripped: StrippedText, options: GateOptions & { test?: "auto" | "patterns" } = {}): GatedText {
  if (options.redact === false) return { text: stripped.text, hidden: stripped.hidden, redactions: [] };
  const redacted = redactSecrets(stripped.text, options.test);
  // A marker in a credential's place may leave a selector after a bracket (`ghp_…5\uFE0E`: a digit may carry one,
  // `]` may not): what it leaves is taken too, so that gating twice is gating once.
  const after = redacted.redactions.length > 0 && options.strip !== false ? stripHidden(redacted.text) : null;
  if (after === null) return { text: redacted.text, hidden: stripped.hidden, redactions: redacted.redactions };
  const hidden = stripped.hidden === null ? after.found : mergeHidden(stripped.hidden, after.found);
  return { text: after.text, hidden, redactions: redacted.redactions };
}

/** Line breaks in a name would start a line of their own in a listing: written as escapes, one name one line. */
const LINE_BREAK = /[\t\n\r\u2028\u2029]/;
const LINE_BREAKS = /[\t\n\r\u2028\u2029]/g;
const escapeBreak = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** What gating a name changed: for doctor. */
interface GatedName {
  name: string;
  hidden: HiddenCharacters | null;
  redactions: Redaction[];
}

/** A file's or folder's name (or a root-relative path) as it may be shown: gated, its line breaks escaped. */
export function gateNameFound(name: string): GatedName {
  // Escaped first: the gate then sees the name as it will be shown, so gating a shown name again changes nothing.
  const { text, hidden, redactions } = gateText(LINE_BREAK.test(name) ? name.replace(LINE_BREAKS, escapeBreak) : name);
  return { name: text, hidden, redactions };
}

/** A name is usually clean: one test of a short text, then the name itself. */
export function gateName(name: string): string {
  return nameMayNeedGate(name) ? gateNameFound(name).name : name;
}

const nameMayNeedGate = (name: string) => mayHoldHidden(name) || LINE_BREAK.test(name) || mayHoldCredentials(name);

/**
 * Whether any of the names shown together (a document's entries and index) may need the gate: tested joined once,
 * since a credential's hint search per name costs more than one over them all.
 */
export const namesNeedGate = (names: readonly string[]): boolean => nameMayNeedGate(names.join(" "));

/** "its name: 2 hidden characters (U+202E), the first at column 5" for doctor and warnings. */
export function describeGatedName(gated: GatedName): string {
  const parts: string[] = [];
  if (gated.hidden !== null) parts.push(describeHidden(gated.hidden));
  if (gated.redactions.length > 0) parts.push(`a credential (${[...new Set(gated.redactions.map((r) => r.kind))].join(", ")})`);
  return parts.join(" and ");
}
