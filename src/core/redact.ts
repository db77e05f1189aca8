import { stripHidden } from "./hidden.js";
import { lazyConstant } from "./lazy-constant.js";
import { lineCounter } from "./line-counter.js";
import { memoSlot } from "./run-memo.js";

/**
 * Credentials in instruction files must not travel to a model provider. Before anything is printed, content
 * is scanned and each credential is replaced by `[REDACTED:<kind>]`; the caller warns with file and line.
 *
 * These are our own patterns for well-known credential shapes, not a general entropy scanner. The maintained
 * rule set we measured (@secretlint/core with its recommended preset: 30–44 ms to import, 7–11 ms for a first
 * lint) costs about as much as all of ctxinject above bare Node, on every prompt.
 */

export interface Redaction {
  kind: string;
  /** 1-based line of the text where the credential started. */
  line: number;
  /**
   * Set when the value has a credential's place but not its shape (a URL's `user:pass@`, a bearer header with a
   * word): redacted all the same, but doctor calls it a warning, not an error, since READMEs show such examples.
   */
  weak?: true;
}

/** A text and what `redactSecrets(text, "patterns")` found in it. */
export interface TestedText {
  text: string;
  redactions: readonly Redaction[];
}

/**
 * A run's pattern tests by file path: select tests --all's files, and doctor tests the same texts again for its
 * findings (~16 ms of a 100k-file tree's `coverage`). Keyed by path, not text: a text as a map key is hashed whole.
 */
export const PATTERN_REDACTIONS = memoSlot(() => new Map<string, TestedText>());

/** A match as RegExp's exec gives it: the whole text at 0, groups after, where it starts. */
interface Found {
  readonly [group: number]: string | undefined;
  readonly 0: string;
  readonly index: number;
}

interface Rule {
  kind: string;
  /** Lower-case words one of which the text holds wherever the pattern can match: the pattern runs only then. */
  hints: readonly string[];
  /**
   * A global pattern, or a scan of its own where a pattern would backtrack over a repository's text without end
   * (each takes time linear in the text: see jwtMatches, closedKeys, passwordMatches).
   */
  pattern: RegExp | ((text: string) => Iterable<Found>);
  /** Index of the group to replace; the whole match when absent. */
  group?: number;
  /** A value that looks like a placeholder rather than a credential: left as it is (`m`: the whole match). */
  skip?: (value: string, m: Found) => boolean;
  /** A value redacted but reported as weak (see Redaction.weak). */
  weak?: (value: string, m: Found) => boolean;
}

/** Hosts only the machine itself answers on: a URL's credentials for them are a local default. */
const LOCAL_HOST = /^(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\]|0\.0\.0\.0|host\.docker\.internal)$/i;
const PLACEHOLDER = /^(\$\{?|<|\{|%|process\.env|os\.environ|env\(|your[-_]|example|changeme|xxx|\*{3})/i;
/** Words an example's credential is made of (`user:password@`, `Bearer YOUR_TOKEN`). */
const EXAMPLE_WORDS =
  /^(?:pass(?:word)?|passwd|pwd|secret|token|changeme|example|test|dummy|placeholder|redacted|hunter2|admin|root|foo|bar|x+|\*+|\.+|your[-_]?\w*|my[-_]?\w*|[a-z]+[-_](?:password|secret|token|key))$/i;
/**
 * Words a placeholder is written with (`base64encodedapikeyhere==`, `my-test-token-123`): a generated value holds
 * one of them by chance about once in a thousand, and then it is still redacted, only reported as weak.
 */
export const PLACEHOLDER_WORDS =
  /here|your|example|sample|dummy|fake|placeholder|replace|insert|encoded|changeme|secret|token|apikey|api_key|password|passwd|xxxx|demo|test|redacted/i;
/** A Basic credential that decodes to an example's `user:password` (`dGVzdHVzZXI6dGVzdHBhc3N3b3Jk`: testuser:testpassword). */
function isExampleBasic(value: string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4 !== 0) return false;
  const decoded = atob(value);
  return /^[\x20-\x7e]+:[\x20-\x7e]*$/.test(decoded) && PLACEHOLDER_WORDS.test(decoded);
}
/**
 * A value written as a mask: half of it or more one run of a single character (`hf_xxxx…`, `AKIAXXXX…`,
 * `sk-proj-****…`). READMEs show a token's shape this way; an issued token never repeats one character so long.
 */
function masked(value: string): boolean {
  let longest = 0;
  for (let i = 0, run = 0; i < value.length; i++) {
    run = i > 0 && value.charCodeAt(i) === value.charCodeAt(i - 1) ? run + 1 : 1;
    if (run > longest) longest = run;
  }
  return longest >= 8 && longest * 2 >= value.length;
}

/** Mixed case or digits, and not one character repeated: the look of a generated value. */
const looksGenerated = (v: string) => /\d/.test(v) && /[A-Za-z]/.test(v) && !/^(.)\1+$/.test(v);

/*
 * Our own patterns for the credential kinds the maintained rule sets cover (gitleaks, secretlint), for the shapes
 * their issuers document: a fixed prefix and a length. Generic ones (a `password =`, a URL's user:pass@) need a
 * value that is not a placeholder.
 */
// Made on the first text that holds a hint (few do): each literal below is parsed where it is evaluated, ~40 of them
// on every start otherwise.
const rules = lazyConstant((): Rule[] => [
  { kind: "private-key", hints: ["private key"], pattern: closedKeys },
  // A key cut short (no END line, or a truncated paste): the BEGIN line and every line of the body that follows.
  {
    kind: "private-key",
    hints: ["private key"],
    pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:(?:\r?\n|\\n)[ \t]*(?:[A-Za-z0-9+/=]+|[A-Za-z-]+: [^\n]*)[ \t]*)*/g,
  },
  { kind: "aws-access-key", hints: ["akia", "asia", "abia", "acca"], pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g },
  {
    kind: "aws-secret-key",
    hints: ["secret"],
    pattern: /\b(?:aws_?secret_?access_?key|aws_?secret|secret_?access_?key)\b["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    group: 1,
  },
  { kind: "gcp-service-account", hints: ["private_key_id"], pattern: /"private_key_id"\s*:\s*"([0-9a-f]{40})"/g, group: 1 },
  { kind: "google-api-key", hints: ["aiza"], pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { kind: "anthropic-api-key", hints: ["sk-ant-"], pattern: /\bsk-ant-(?:[a-z]+\d*-)?[A-Za-z0-9_-]{32,}/g },
  {
    kind: "openai-api-key",
    hints: ["sk-"],
    pattern: /\bsk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|[A-Za-z0-9]{48}(?![A-Za-z0-9_-]))/g,
  },
  { kind: "stripe-key", hints: ["sk_", "rk_", "whsec_"], pattern: /\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{32,})\b/g },
  { kind: "huggingface-token", hints: ["hf_"], pattern: /\bhf_[A-Za-z0-9]{30,40}\b/g },
  {
    kind: "github-token",
    hints: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g,
  },
  { kind: "gitlab-token", hints: ["gl"], pattern: /\bgl(?:pat|ptt|dt|rt|cbt|oas|soat|ft|imt|agent)-[A-Za-z0-9_-]{20,}/g },
  { kind: "slack-token", hints: ["xox"], pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,}\b/g },
  {
    kind: "slack-webhook",
    hints: ["hooks.slack.com"],
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_]+\/[A-Za-z0-9_]+\/[A-Za-z0-9_]+/g,
  },
  { kind: "discord-webhook", hints: ["discord"], pattern: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]{20,}/g },
  { kind: "telegram-bot-token", hints: [":aa"], pattern: /\b\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g },
  { kind: "npm-token", hints: ["npm_"], pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: "npm-token", hints: ["_authtoken"], pattern: /:_authToken=([^\s"'$][^\s"']{8,})/g, group: 1, skip: (v) => PLACEHOLDER.test(v) },
  { kind: "pypi-token", hints: ["pypi-"], pattern: /\bpypi-AgE[A-Za-z0-9_-]{50,}/g },
  { kind: "docker-token", hints: ["dckr_"], pattern: /\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}/g },
  { kind: "sendgrid-key", hints: ["sg."], pattern: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g },
  { kind: "twilio-key", hints: ["sk"], pattern: /\bSK[0-9a-f]{32}\b/g },
  { kind: "shopify-token", hints: ["shp"], pattern: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g },
  { kind: "digitalocean-token", hints: ["_v1_"], pattern: /\bdo[opr]_v1_[a-f0-9]{64}\b/g },
  { kind: "linear-key", hints: ["lin_api_"], pattern: /\blin_api_[A-Za-z0-9]{40}\b/g },
  { kind: "databricks-token", hints: ["dapi"], pattern: /\bdapi[a-f0-9]{32}(?:-\d)?\b/g },
  { kind: "newrelic-key", hints: ["nrak-"], pattern: /\bNRAK-[A-Z0-9]{27}\b/g },
  { kind: "square-token", hints: ["sq0"], pattern: /\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}/g },
  { kind: "age-secret-key", hints: ["age-secret-key-"], pattern: /\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b/g },
  {
    kind: "ai-api-key",
    hints: ["gsk_", "xai-", "r8_", "pplx-"],
    pattern: /\b(?:gsk_[A-Za-z0-9]{48,}|xai-[A-Za-z0-9]{70,}|r8_[A-Za-z0-9]{37}|pplx-[A-Za-z0-9]{48})\b/g,
  },
  { kind: "azure-storage-key", hints: ["accountkey"], pattern: /AccountKey=([A-Za-z0-9+/]{86}==)/gi, group: 1 },
  { kind: "azure-client-secret", hints: ["q~"], pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g },
  { kind: "jwt", hints: ["eyj"], pattern: jwtMatches },
  {
    kind: "authorization-header",
    hints: ["authoriz"],
    pattern: /\bAuthorization["']?\s*[:=]\s*["']?(?:Bearer|Basic|Token|Bot)\s+([^\s"'`<>]{8,})/gi,
    group: 1,
    skip: (v) => PLACEHOLDER.test(v) || v.startsWith("["),
    weak: (v) => !looksGenerated(v) || EXAMPLE_WORDS.test(v) || isExampleBasic(v),
  },
  {
    // user:password@host in any scheme's URL (postgres://, https://, redis://…): the password goes.
    kind: "url-credentials",
    hints: ["://"],
    // Groups: the user, the password, the host (looked at, not taken: the match ends at the @).
    pattern: /\b[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/([^\s:@/'"`<>]{1,100}):([^\s@/'"`<>]{1,200})@(?=([A-Za-z0-9[][^\s/:'"`<>?#]{0,100}))/g,
    group: 2,
    // A local development database's default (`postgres://user:pass@localhost`, `postgres:postgres@127.0.0.1`) is
    // documentation, not a secret: an example password, or the user name again, on a loopback host.
    skip: (v, m) => PLACEHOLDER.test(v) || v.startsWith("[") || (LOCAL_HOST.test(m[3] ?? "") && (EXAMPLE_WORDS.test(v) || v === m[1])),
    // Any other password for a loopback host is still redacted, reported as weak (a warning, not an error).
    weak: (v, m) => EXAMPLE_WORDS.test(v) || v.length < 6 || LOCAL_HOST.test(m[3] ?? ""),
  },
  {
    kind: "password",
    // Not `token` alone (in nearly every README and rule, and its scan of a text was a tenth of --all's redaction):
    // the keyword holds a token only as access[_-]?token or auth[_-]?token, each of which holds one of these.
    hints: ["passw", "pwd", "secret", "api", "_token", "-token", "stoken", "htoken"],
    pattern: passwordMatches,
    group: 2,
    // Long and mixed (letters with digits): a real value, not words (`alice-password`), an identifier or a
    // placeholder. Found in public repositories' examples; see the conformance run.
    skip: (v) => PLACEHOLDER.test(v) || !/[A-Za-z]/.test(v) || !/\d/.test(v) || /^(.)\1+$/.test(v),
    weak: (v) => PLACEHOLDER_WORDS.test(v),
  },
]);

/**
 * A word every credential above contains. Most files hold none: a scan or two instead of thirty patterns (each
 * compiled on its first use, on every run). WORDS is case-blind (`Password`, `TOKEN`); alternatives sharing a first
 * letter are grouped under it, which scans --all's megabytes about a quarter faster. PREFIXES holds the issuers'
 * fixed-case prefixes, case-sensitive: a case-blind scan with them all in one pattern took three times the old
 * scan's time on the benchmark tree, two scans take twice. A URL counts only with a user:password@ in it, looked
 * for only where the text has both `://` and `@`, since nearly every README links somewhere.
 */
const WORDS =
  /a(?:kia|sia|bia|cca|pi[_-]?key|ccountkey|uthoriz)|p(?:rivate.key|assw|wd)|secret|g(?:h[pousr]_|ithub_pat_|l(?:pat|ptt|dt|rt|cbt|oas|soat|ft|imt|agent)-)|xox|hooks\.slack|npm_|eyj|token/i;
const PREFIXES = /sk[-_]|[rh][k8f]_|AIza|xai-|pplx-|pypi-|dckr_|_v1_|lin_api_|dapi|NRAK-|Q~|:AA|SG\.|SK[0-9a-f]{8}|shp[a-z]{2}_|sq0|whsec_|discord|gsk_/;
const URL_CREDENTIALS = /:\/\/[^\s/@:]{1,100}:[^\s/@]{1,200}@/;
const urlCredentials = (text: string): boolean => text.includes("://") && text.includes("@") && URL_CREDENTIALS.test(text);
const hinted = (text: string): boolean => WORDS.test(text) || PREFIXES.test(text) || urlCredentials(text);

/*
 * The same test as `hinted` by substring search, a little wider (`private` for `private.key`, `shp` for
 * `shp[a-z]{2}_`). WORDS and PREFIXES cost about 0.3 ms to compile on their first use and as much again on their
 * second (V8 interprets a pattern once, then compiles it to machine code); a search costs a few microseconds on a
 * message but several times the compiled patterns per kilobyte, so it tests short texts only.
 */
const WORD_SUBSTRINGS = [
  "akia",
  "asia",
  "abia",
  "acca",
  "api_key",
  "api-key",
  "apikey",
  "accountkey",
  "authoriz",
  "private",
  "passw",
  "pwd",
  "secret",
  "ghp_",
  "gho_",
  "ghu_",
  "ghs_",
  "ghr_",
  "github_pat_",
  "glpat-",
  "glptt-",
  "gldt-",
  "glrt-",
  "glcbt-",
  "gloas-",
  "glsoat-",
  "glft-",
  "glimt-",
  "glagent-",
  "xox",
  "hooks.slack",
  "npm_",
  "eyj",
  "token",
];
const PREFIX_SUBSTRINGS = [
  "sk-",
  "sk_",
  "rk_",
  "r8_",
  "rf_",
  "hk_",
  "h8_",
  "hf_",
  "AIza",
  "xai-",
  "pplx-",
  "pypi-",
  "dckr_",
  "_v1_",
  "lin_api_",
  "dapi",
  "NRAK-",
  "Q~",
  ":AA",
  "SG.",
  "shp",
  "sq0",
  "whsec_",
  "discord",
];
function hintedBySearch(text: string): boolean {
  const lower = text.toLowerCase();
  for (const word of WORD_SUBSTRINGS) if (lower.includes(word)) return true;
  for (const prefix of PREFIX_SUBSTRINGS) if (text.includes(prefix)) return true;
  // PREFIXES' SK[0-9a-f]{8}: `SK` alone is in TASK and RISK.
  for (let at = text.indexOf("SK"); at !== -1; at = text.indexOf("SK", at + 1)) if (isHexDigit(text.charCodeAt(at + 2))) return true;
  return urlCredentials(text);
}
const isHexDigit = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 97 && c <= 102);

/** Texts up to this length are searched for hints (a message, a config value), longer ones scanned by pattern. */
const SEARCH_MAX_CHARS = 1024;

/**
 * Whether `text` may hold a credential: false means redactSecrets would find none. A caller with a few texts
 * tests them joined (`\n` between them) once, so the patterns run once, interpreted, and are never compiled to
 * machine code; a text that holds a hint is then redacted on its own.
 */
export function mayHoldCredentials(text: string): boolean {
  return text.length <= SEARCH_MAX_CHARS ? hintedBySearch(text) : hinted(text);
}

/**
 * `test`: how a text is first tested for hints, "patterns" for a caller with many texts (--all's hundreds, short
 * ones among them, where the compiled patterns cost least) or texts a joined test found hinted.
 */
export function redactSecrets(text: string, test: "auto" | "patterns" = "auto"): { text: string; redactions: Redaction[] } {
  if (!(test === "patterns" ? hinted(text) : mayHoldCredentials(text))) return { text, redactions: [] };
  const redactions: Redaction[] = [];
  const present = hintsIn(text.toLowerCase());
  let out = text;
  for (const rule of rules()) if (rule.hints.some((hint) => present.has(hint))) out = redactRule(out, rule, redactions);
  redactions.sort((a, b) => a.line - b.line || (a.kind < b.kind ? -1 : 1));
  return { text: out, redactions };
}

/**
 * Every rule's hints in one pattern, and the hints by their first character: what hintsIn scans with. Made with
 * the rules (on the first text that holds a hint).
 */
const anyHint = lazyConstant(() => {
  const hints = [...new Set(rules().flatMap((rule) => rule.hints))];
  const byFirst = new Map<string, string[]>();
  for (const hint of hints) byFirst.set(hint[0]!, [...(byFirst.get(hint[0]!) ?? []), hint]);
  return { pattern: new RegExp(hints.map((h) => h.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g"), byFirst };
});

/**
 * The hints `lower` holds, in one scan of it: each hint searched for on its own was ~60 scans of every hinted text
 * (--all's megabytes, where nearly every README holds a `token`: a third of its redaction). Each place a hint
 * starts is found (the scan goes on from the next character, not past the match), and there every hint with that
 * first character is tried, so hints that overlap (`sk`, `sk-`, `sk-ant-`) are all found.
 */
function hintsIn(lower: string): Set<string> {
  const { pattern, byFirst } = anyHint();
  const present = new Set<string>();
  pattern.lastIndex = 0;
  for (let m = pattern.exec(lower); m !== null; m = pattern.exec(lower)) {
    for (const hint of byFirst.get(lower[m.index]!)!) if (lower.startsWith(hint, m.index)) present.add(hint);
    pattern.lastIndex = m.index + 1;
  }
  return present;
}

/** The longest message ctxinject prints about a file: a short excerpt, never the file. */
const MAX_MESSAGE_CHARS = 400;

/**
 * Text ctxinject writes about files (a warning, an error, a hook's systemMessage, a session entry's id): without
 * hidden characters, with credentials redacted, and cut to `max` characters.
 */
export function safeMessage(text: string, max = MAX_MESSAGE_CHARS): string {
  const out = redactSecrets(stripHidden(text)?.text ?? text).text;
  return out.length > max ? `${out.slice(0, max)}… (${out.length - max} more characters)` : out;
}

/** `text` with what `rule` finds replaced by its marker, each one recorded in `redactions`. */
function redactRule(text: string, rule: Rule, redactions: Redaction[]): string {
  const lineOf = lineCounter(text);
  let out = "";
  let at = 0;
  for (const m of typeof rule.pattern === "function" ? rule.pattern(text) : globalMatches(rule.pattern, text)) {
    const match = m[0];
    const value = rule.group !== undefined ? m[rule.group] : match;
    if (value === undefined || value.startsWith("[REDACTED:") || rule.skip?.(value, m)) continue;
    // A private key's body may hold long runs (`AAAA…` in an OpenSSH key): its frame decides, never a mask.
    if (rule.kind !== "private-key" && masked(value)) continue;
    const valueAt = m.index + (rule.group !== undefined ? match.lastIndexOf(value) : 0);
    const redaction: Redaction = { kind: rule.kind, line: lineOf(valueAt) };
    if (rule.weak?.(value, m)) redaction.weak = true;
    redactions.push(redaction);
    out += `${text.slice(at, valueAt)}[REDACTED:${rule.kind}]`;
    at = valueAt + value.length;
  }
  return out === "" ? text : out + text.slice(at);
}

function* globalMatches(pattern: RegExp, text: string): Iterable<Found> {
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) yield m;
}

/*
 * Three kinds a backtracking pattern cannot find in time linear in a repository's text, scanned here instead. Each
 * finds what its pattern (in the comment above it) finds, in the same order.
 */

const isWordChar = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isBase64UrlChar = (c: number): boolean => isWordChar(c) || c === 45;
function base64UrlEnd(text: string, at: number): number {
  while (at < text.length && isBase64UrlChar(text.charCodeAt(at))) at++;
  return at;
}

/**
 * `\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`. The pattern tried every `eyJ` of a run of
 * base64url characters to the run's end again (`eyJaaaaaaaa-` repeated: 13 s for 300 KB); but each ends where the
 * first did and meets the same text there, so when the first fails, the next to try is past the run.
 */
function* jwtMatches(text: string): Iterable<Found> {
  for (let at = text.indexOf("eyJ"); at !== -1; ) {
    if (at > 0 && isWordChar(text.charCodeAt(at - 1))) {
      at = text.indexOf("eyJ", at + 1);
      continue;
    }
    const header = base64UrlEnd(text, at + 3);
    const end = jwtEnd(text, at, header);
    if (end === -1) {
      at = text.indexOf("eyJ", header);
      continue;
    }
    yield { 0: text.slice(at, end), index: at };
    at = text.indexOf("eyJ", end);
  }
}

/** Where the token whose header runs from `at` to `header` ends, or -1 when it is not a JWT. */
function jwtEnd(text: string, at: number, header: number): number {
  if (header - at < 11 || text.charCodeAt(header) !== 46 || !text.startsWith("eyJ", header + 1)) return -1;
  const payload = base64UrlEnd(text, header + 4);
  if (payload - header < 12 || text.charCodeAt(payload) !== 46) return -1;
  const signature = base64UrlEnd(text, payload + 1);
  return signature - payload < 9 ? -1 : signature;
}

/**
 * `-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END \1PRIVATE KEY(?: BLOCK)?-----`: the
 * pattern read from each BEGIN to the text's end when no END came; here each type's END lines are listed once.
 */
function* closedKeys(text: string): Iterable<Found> {
  if (!text.includes("-----END ")) return;
  const endsOf = new Map<string, Array<{ at: number; end: number }>>();
  const endLine = /-----END ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----/g;
  for (let m = endLine.exec(text); m !== null; m = endLine.exec(text)) {
    const ends = endsOf.get(m[1]!) ?? [];
    if (ends.length === 0) endsOf.set(m[1]!, ends);
    ends.push({ at: m.index, end: m.index + m[0].length });
    endLine.lastIndex = m.index + 1;
  }
  const nextOf = new Map<string, number>();
  const beginLine = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----/g;
  for (let m = beginLine.exec(text); m !== null; m = beginLine.exec(text)) {
    const type = m[1]!;
    const ends = endsOf.get(type) ?? [];
    const body = m.index + m[0].length;
    let next = nextOf.get(type) ?? 0;
    while (next < ends.length && ends[next]!.at < body) next++;
    nextOf.set(type, next);
    const close = ends[next];
    if (close === undefined) {
      beginLine.lastIndex = m.index + 1;
      continue;
    }
    yield { 0: text.slice(m.index, close.end), index: m.index };
    beginLine.lastIndex = close.end;
  }
}

/**
 * `(?<![A-Za-z])(?:password|…|client[_-]?secret)(?<!\barn:[^\s"'`]*)\b["']?\s*[:=]\s*(["']?)([^\s"'`,;]{12,})\1`:
 * not the `secret:` resource type inside an AWS ARN (`arn:aws:secretsmanager:…:secret:name-Ab12Cd`), which names a
 * secret and holds none. The lookbehind read back to the start of the word at each keyword (`1password` repeated:
 * no answer in 100 s for 1 MiB); here one pass (arnBefore) answers for every keyword.
 */
function* passwordMatches(text: string): Iterable<Found> {
  const keyword = /(?<![A-Za-z])(?:password|passwd|pwd|secret|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|client[_-]?secret)\b/gi;
  // The value as one piece (the lookahead's capture is not backtracked into): no character of it is a quote.
  const assigned = /["']?\s*[:=]\s*(["']?)(?=([^\s"'`,;]{12,}))\2\1/y;
  const inArn = text.toLowerCase().includes("arn:") ? arnBefore(text) : undefined;
  for (let m = keyword.exec(text); m !== null; m = keyword.exec(text)) {
    const end = m.index + m[0].length;
    assigned.lastIndex = end;
    const value = inArn?.(end) === true ? null : assigned.exec(text);
    if (value === null) {
      keyword.lastIndex = m.index + 1;
      continue;
    }
    const stop = end + value[0].length;
    yield { 0: text.slice(m.index, stop), 1: value[1], 2: value[2], index: m.index };
    keyword.lastIndex = stop;
  }
}

/**
 * Whether `\barn:` comes before `end` in the same run of characters other than white space, quotes and backticks,
 * asked for increasing ends: one pass over the text for all of them.
 */
function arnBefore(text: string): (end: number) => boolean {
  let at = 0;
  let brokenAt = -1;
  let arnAt = -1;
  return (end) => {
    if (end < at) [at, brokenAt, arnAt] = [0, -1, -1];
    for (; at < end; at++) {
      const c = text.charCodeAt(at);
      if (c === 34 || c === 39 || c === 96 || (c <= 32 ? c === 32 || (c >= 9 && c <= 13) : c >= 160 && /\s/.test(text[at]!))) brokenAt = at;
      else if ((c | 32) === 97 && at + 4 <= end && text.slice(at, at + 4).toLowerCase() === "arn:" && (at === 0 || !isWordChar(text.charCodeAt(at - 1))))
        arnAt = at;
    }
    return arnAt > brokenAt;
  };
}
