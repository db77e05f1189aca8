/** Words for relevance: split identifiers and paths, lowercase, drop stop words, stem. */

export type Stem = (word: string) => string;

// Function words plus the verbs every coding prompt uses ("fix", "add", "make"): they say nothing about topic.
const STOP = new Set(
  (
    "a an and are as at be been but by can could did do does for from has have how i if in into is it its " +
    "me my no not of on or our out over please should so some than that the their them then there these " +
    "they this those to up us was we were what when where which while who why will with would you your " +
    "all any also just only very via per each every more most other same such too own " +
    "add added adding fix fixed fixing make makes made use used using need needs want wants get gets got " +
    "let lets now new old sure ok okay thing things something way look see try tried work works working " +
    "change changes changed update updates updated do done doing one two code file files line lines " +
    "it's isn't doesn't don't can't won't i'm we're they're that's there's " +
    "take takes took find found put puts run runs ran write writes wrote remove removes removed replace check " +
    "move moves before after instead into about again still really everything everywhere someone"
  ).split(" "),
);

/**
 * Splits camelCase, PascalCase, snake_case, kebab-case and paths into lowercase words. A word written as one
 * camel-cased token also stays whole ("WebSocket" is "websocket", "web" and "socket"; "GraphQL" is "graphql"),
 * because a prompt writes it either way.
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const raw of text.split(/[^A-Za-z0-9']+/)) {
    if (raw.length < 2) continue;
    // Each pattern is compiled on its first use, on every run: the ones a word cannot need are not run.
    if (/[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/.test(raw)) {
      const parts = raw.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2").split(" ");
      if (parts.length === 2) words.push(raw.toLowerCase());
      for (const part of parts) words.push(part.toLowerCase());
    } else {
      words.push(raw.toLowerCase());
    }
  }
  return words
    .map((w) => (w.includes("'") ? w.replace(/^'+|'+$/g, "").replace(/'s$/, "") : w))
    .filter((w) => w.length >= 2 && !/^\d+$/.test(w));
}

/** Content words of a text, stemmed; repeats kept (they count as term frequency). */
export function terms(text: string, stem: Stem): string[] {
  return splitWords(normalizePhrases(text))
    .filter((w) => !STOP.has(w))
    .map(stem);
}

const HTTP_WORDS = /\b(status|https?|return(s|ed|ing)?|respon(d|ds|se|ses)|error|code|api|endpoint|request|route|handler|answer(s|ed)?|repl(y|ies))\b/i;

/**
 * Phrases whose words mislead one by one: "logged out" is about sessions, not logging; an HTTP status
 * (400-599) says "status code".
 */
function normalizePhrases(text: string): string {
  const lower = text.toLowerCase();
  let out = text;
  if (lower.includes("log") || lower.includes("sign")) {
    out = out.replace(/\b(log(?:ged|ging|s)?|sign(?:ed|ing|s)?)[\s-]?(in|out|on|off)\b/gi, "signin").replace(/\blog[io]n\b|\blogout\b/gi, "signin");
  }
  if (lower.includes("accessib") || lower.includes("screen reader")) {
    out = out.replace(/\baccessib\w*/gi, "a11y").replace(/\bscreen[\s-]?readers?\b/gi, "screenreader");
  }
  if (lower.includes("roll")) out = out.replace(/\broll(?:ed|ing|s)?[\s-]?(out|back)\b/gi, "roll$1");
  if (lower.includes("tab")) out = out.replace(/\btab[\s-]?(order|index|key)\b/gi, "taborder");
  // A number from 100 to 599 is a status only where the text speaks of HTTP: "#333", "500 items" and "200 users" are not.
  if (!/[1-5]\d\d/.test(out) || !HTTP_WORDS.test(out)) return out;
  return out.replace(/(?<![\w.#-])[1-5]\d\d(?![\w.%-])/g, "status");
}

/**
 * Words a developer uses for the same topic: generic engineering vocabulary, grown from the prompts the
 * relevance set missed before each round froze (never from a split measured afterwards). A prompt word in a
 * group also counts as the group's other words.
 */
const RELATED: readonly string[][] = [
  ["database", "db", "sql", "schema", "table", "column", "migration", "index", "query"],
  ["endpoint", "route", "handler", "api", "http", "status"],
  ["error", "exception", "failure", "status"],
  ["slow", "fast", "faster", "speed", "latency", "performance", "optimize", "profile", "render", "batch", "n+1"],
  ["backup", "restore", "snapshot", "dump"],
  ["translate", "translation", "i18n", "l10n", "locale", "localization", "language", "intl", "rtl"],
  // A language's name in a prompt is about translation.
  ["translation", "english", "german", "french", "spanish", "italian", "portuguese", "dutch", "polish", "japanese", "chinese", "korean", "arabic", "hebrew"],
  ["a11y", "aria", "screenreader", "keyboard", "focus", "taborder", "contrast", "wcag", "alt"],
  ["security", "secure", "vulnerability", "injection", "xss", "csrf", "sanitize", "escape", "secret", "leak", "exploit", "hostile", "credential", "eval", "untrusted", "input"],
  ["signin", "auth", "authentication", "session", "token", "password", "credential", "permission", "role"],
  ["permission", "role", "owner", "admin", "member", "invite", "authorization", "acl", "tenant", "idor"],
  ["screen", "mobile", "phone", "tablet", "viewport", "responsive", "breakpoint", "layout", "sidebar", "grid", "flexbox", "overflow"],
  ["css", "style", "styling", "theme", "color", "colour", "font"],
  ["test", "tests", "spec", "fixture", "mock", "vitest", "jest", "e2e", "suite"],
  ["docker", "container", "image", "compose", "dockerfile"],
  ["ci", "pipeline", "workflow", "actions", "job"],
  ["realtime", "websocket", "socket", "sse", "push", "reconnect", "live"],
  ["dependency", "dependencies", "deps", "package", "npm", "upgrade", "bump", "major", "outdated", "lockfile", "audit", "vulnerable"],
  ["release", "publish", "version", "changelog", "tag", "semver"],
  ["log", "logger", "logging", "console"],
  ["cache", "caching", "memoize", "memo"],
  ["component", "hook", "props", "jsx", "tsx"],
  ["flag", "rollout", "toggle"],
  ["rollback", "revert", "restore", "undo"],
];

/** A query concept: a word of the prompt, or a group of related words standing in for one. */
export interface Concept {
  terms: string[];
  weight: number;
  related: boolean;
}

/** Weight of a related-words group next to a word the prompt actually says. */
export const RELATED_WEIGHT = 0.5;

/** The prompt's stemmed words, one concept each, then one concept per group of related words they touch. */
export function queryConcepts(text: string, stem: Stem): Concept[] {
  const direct = [...new Set(terms(text, stem))];
  const said = new Set(direct);
  const taken = new Set(direct);
  const concepts: Concept[] = direct.map((t) => ({ terms: [t], weight: 1, related: false }));
  for (const group of RELATED) {
    const stems = [...new Set(group.map(stem))];
    if (!stems.some((t) => said.has(t))) continue;
    const others = stems.filter((t) => !taken.has(t));
    for (const t of others) taken.add(t);
    if (others.length > 0) concepts.push({ terms: others, weight: RELATED_WEIGHT, related: true });
  }
  return concepts;
}
