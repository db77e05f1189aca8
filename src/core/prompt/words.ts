/** Words for relevance: split identifiers and paths, lowercase, drop stop words, stem. */

import { lazyConstant } from "../lazy-constant.js";

export type Stem = (word: string) => string;

// Function words plus the verbs every coding prompt uses ("fix", "add", "make"): they say nothing about topic.
const STOP: ReadonlySet<string> = new Set(
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
    "move moves before after instead into about again still really everything everywhere someone " +
    // Words every kind of prompt uses, whatever its topic.
    "user users goes going call calls called once around straight whole giant stuff"
  ).split(" "),
);

/**
 * Path words that say where a file is or what kind of file it is, never what it is about: every path of a
 * repository shares them, so as relevance evidence they match every rule that happens to use the word
 * (`figma-essential-rules.md` was once injected on `packag, src, ts`). A topic word in a path (payments, auth,
 * billing) still counts.
 */
const NON_TOPIC_PATH_WORDS: ReadonlySet<string> = new Set(
  (
    "src source sources lib libs pkg pkgs package packages app apps module modules internal cmd bin " +
    "test tests spec specs __tests__ __mocks__ e2e fixture fixtures dist build out target tmp vendor public static " +
    "index main mod init __init__ common shared core util utils helper helpers misc " +
    "ts tsx mts cts js jsx mjs cjs d py pyi rs go java kt kts rb php cs cpp cc hpp swift scala ex exs " +
    "json jsonc yaml yml toml ini md mdx mdc txt html css scss sass less vue svelte astro sh sql lock"
  ).split(" "),
);

/** The words of a path (a target, or a path written in a prompt) that may say what it is about. */
export function pathTopicWords(path: string): string {
  return splitWords(path)
    .filter((w) => !NON_TOPIC_PATH_WORDS.has(w))
    .join(" ");
}

/** A prompt with each path in it reduced to its topic words (a path is there only when the text has a `/`). */
export function withPathTopics(text: string): string {
  // Each word whole, then asked for a `/`: a pattern around the `/` went back over a long word from each character.
  return text.includes("/") ? text.replace(/[^\s`'"()<>]+/g, (word) => (word.includes("/") ? ` ${pathTopicWords(word)} ` : word)) : text;
}

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
      const parts = raw
        .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
        .replace(/(?<![A-Z])([A-Z]+)([A-Z][a-z])/g, "$1 $2")
        .split(" ");
      if (parts.length === 2) words.push(raw.toLowerCase());
      for (const part of parts) words.push(part.toLowerCase());
    } else {
      words.push(raw.toLowerCase());
    }
  }
  return words.map((w) => (w.includes("'") ? withoutQuotes(w).replace(/'s$/, "") : w)).filter((w) => w.length >= 2 && !/^\d+$/.test(w));
}

/** A word without the quotes around it, trimmed by hand: `/'+$/` went back over each run of quotes inside it. */
function withoutQuotes(word: string): string {
  let start = 0;
  let end = word.length;
  while (start < end && word.charCodeAt(start) === 39) start++;
  while (end > start && word.charCodeAt(end - 1) === 39) end--;
  return word.slice(start, end);
}

/**
 * What the reading of words may do beyond splitting and stemming: each part is on unless an evaluation turns it off
 * (`npm run relevance -- --without=phrases,related`) to measure what it earns (docs/relevance.md).
 */
export interface Reading {
  /** Phrases read as one word ("logged out" is signin, "rate limiting" ratelimit, a lone 404 a status). */
  phrases?: boolean;
  /** The related-words table (RELATED) and the compounds' parts. */
  related?: boolean;
}

/** Content words of a text, stemmed; repeats kept (they count as term frequency). */
export function terms(text: string, stem: Stem, reading?: Reading): string[] {
  return contentWords(text, reading).map(stem);
}

/** Content words of a text as written (lowercased), before stemming: what a typo is compared with. */
export function contentWords(text: string, reading?: Reading): string[] {
  return words(text, reading).filter((w) => !STOP.has(w));
}

/** Every word of a text, stop words included, phrases read (unless `reading` turns them off). */
export function words(text: string, reading?: Reading): string[] {
  return splitWords(reading?.phrases === false ? text : normalizePhrases(text));
}

/** Whether a word says nothing about a topic (a function word, or a verb every prompt uses). */
export function isStopWord(word: string): boolean {
  return STOP.has(word);
}

/**
 * For each stem in `wanted`, the first word of the text (lowercased, as `terms` reads it) that stems to it: the word
 * as its author wrote it, for explain's evidence. Stops reading once every wanted stem is found.
 */
export function surfaceForms(text: string, stem: Stem, wanted: ReadonlySet<string>, reading?: Reading): Map<string, string> {
  const found = new Map<string, string>();
  for (const word of words(text, reading)) {
    if (STOP.has(word)) continue;
    const s = stem(word);
    if (wanted.has(s) && !found.has(s)) {
      found.set(s, word);
      if (found.size === wanted.size) break;
    }
  }
  return found;
}

const HTTP_WORDS = /\b(status|https?|return(s|ed|ing)?|respon(d|ds|se|ses)|error|code|api|endpoint|request|route|handler|answer(s|ed)?|repl(y|ies))\b/i;

/**
 * Phrases whose words mislead one by one: "logged out" is about sessions, not logging; an HTTP status
 * (400-599) says "status code". Round 12 removed the six that changed no figure on any split (right-to-left, on-call,
 * end-to-end, dead-letter, code path, page view: `npm run relevance -- --without=phrases` measures the rest).
 */
function normalizePhrases(text: string): string {
  const lower = text.toLowerCase();
  let out = text;
  if (lower.includes("log") || lower.includes("sign")) out = signInPhrases(out);
  if (lower.includes("accessib") || lower.includes("screen reader")) {
    out = out.replace(/\baccessib\w*/gi, "a11y").replace(/\bscreen[\s-]?readers?\b/gi, "screenreader");
  }
  if (lower.includes("roll")) out = out.replace(/\broll(?:ed|ing|s)?[\s-]?(out|back)\b/gi, "roll$1");
  if (lower.includes("tab")) out = out.replace(/\btab[\s-]?(order|index|key)\b/gi, "taborder");
  if (lower.includes("post")) out = out.replace(/\bpost[\s-](mortem|incident)\b/gi, "postmortem");
  if (lower.includes("rate")) out = out.replace(/\brate[\s-]?limit(s|ed|ing|er)?\b/gi, "ratelimit");
  if (lower.includes("load")) out = out.replace(/\bload[\s-]?test(s|ing)?\b/gi, "loadtest");
  if (lower.includes("screen")) out = out.replace(/\b(small|narrow|mobile|phone)[\s-]screens?\b/gi, "mobile");
  // A number from 100 to 599 is a status only where the text speaks of HTTP: "#333", "500 items" and "200 users" are not.
  if (!/[1-5]\d\d/.test(out) || !HTTP_WORDS.test(out)) return out;
  return out.replace(/(?<![\w.#-])[1-5]\d\d(?![\w.%-])/g, "status");
}

/**
 * "log in", "logged out", "sign off" and "login" say "sign-in"; but "logs" and "logging" are also nouns, and a phrase
 * is read only where its words mean signing in: "switch debug logs off" and "turn logging on" are about logging (round
 * 9: fresh-r8's "switch debug logs off in prod" was read as "signin"), as are "add a log in the handler" (a noun
 * before: an article or a kind of log) and "the logs in grafana" or "logging in the worker" (a place after).
 */
function signInPhrases(text: string): string {
  return text
    .replace(/\b(log(?:ged|ging|s)?|sign(?:ed|ing|s)?)([\s-]?)(in|out|on|off)\b/gi, (phrase, verb: string, gap: string, particle: string, at: number) => {
      const v = verb.toLowerCase();
      const p = particle.toLowerCase();
      if (v.startsWith("sign")) {
        // "sign off on the release", "a sign-off from legal": an approval (round 9 read fresh-r9's as a sign-in).
        if (p === "off" && (/^\s+(on|for)\b/i.test(text.slice(at + phrase.length)) || isNounBefore(text, at))) return phrase;
        return "signin";
      }
      // "logs on/off", "logging on/off": a switch for logs, never a session.
      if ((v === "logs" || v === "logging") && (p === "on" || p === "off")) return phrase;
      if (isNounBefore(text, at)) return phrase;
      // "the logs in grafana", "logging in the worker": a place after "in" is where the logs are, not a sign-in.
      if (
        gap !== "-" &&
        p === "in" &&
        (v === "logs" || v === "logging") &&
        /^\s+(the|a|an|our|this|that|each|every|all|prod|production|staging|ci|dev)\b/i.test(text.slice(at + phrase.length))
      ) {
        return phrase;
      }
      return "signin";
    })
    .replace(/\blog[io]n\b|\blogout\b/gi, "signin");
}

/** Whether the word before `at` makes the phrase there a noun ("a log in the handler", "a sign-off"). */
function isNounBefore(text: string, at: number): boolean {
  const before = /([a-z]+)[^a-z]*$/i.exec(text.slice(Math.max(0, at - 24), at))?.[1]?.toLowerCase();
  return before !== undefined && LOG_NOUN_BEFORE.has(before);
}

/** Words before "log(s) in/out" that make "log" a noun: an article, or a kind of log ("a debug log in the handler"). */
const LOG_NOUN_BEFORE: ReadonlySet<string> = new Set(
  "a an the this that these those our my your their its some any no more fewer debug error audit access server app request verbose info warn warning trace console json structured build".split(
    " ",
  ),
);

/**
 * Words a developer uses for the same topic: generic software vocabulary, one group per topic that projects write
 * rules about. Rounds 1-4 grew this list from the prompts each round missed, and every fresh split still found new
 * gaps; round 5 rewrote it top-down, topic by topic, from what each topic's tools, symptoms and tasks are called
 * (never from a split measured afterwards). A prompt word in a group also counts as the group's other words.
 * A word that means different things in different topics (job, token, index, render, version) stays out
 * of the groups where it would pull in the wrong topic; so does a word the stemmer merges with another topic's
 * ("transaction" stems like "transactional", which is about email).
 * Round 6 cut this table to four groups by what each earned on fresh-r5 alone; fresh-r6 showed that cut overfitted
 * (reach 0.79 with the four, 0.90 with the whole table), so round 7 restored it. Round 12 removed seven groups
 * whose topic a rule of fixtures/relevance is about and whose removal lowered reach on none of its thirteen splits
 * (endpoints, translating, styling, releases, email, reports, docs: test/relevance/ablate-related.ts); caching earned
 * nothing there either but stays, as explain's related-word evidence (test/e2e/explain-text.test.ts) rests on it; a
 * group no rule there exercises stays until a split can measure it. Related words lift a rule into the likely tier
 * only: injection is decided on the prompt's own words.
 */
export const RELATED: readonly string[][] = [
  // data
  [
    "database",
    "db",
    "sql",
    "postgres",
    "postgresql",
    "mysql",
    "sqlite",
    "schema",
    "table",
    "column",
    "row",
    "migration",
    "orm",
    "prisma",
    "drizzle",
    "knex",
    "sequelize",
    "typeorm",
    "constraint",
    "foreign",
  ],
  ["migration", "migrate", "alter", "backfill", "rename", "drop", "nullable", "column"],
  ["backup", "restore", "snapshot", "dump", "recovery", "pitr", "replica"],
  [
    "search",
    "fulltext",
    "opensearch",
    "elasticsearch",
    "elastic",
    "algolia",
    "meilisearch",
    "typesense",
    "solr",
    "lucene",
    "analyzer",
    "synonym",
    "stemming",
    "fuzzy",
    "autocomplete",
    "typeahead",
    "ranking",
    "relevance",
    "reindex",
    "facet",
    "boost",
  ],
  ["graphql", "resolver", "mutation", "apollo", "dataloader", "fragment", "subscription"],
  // HTTP
  ["error", "exception", "failure", "status", "throw", "validation", "problem"],
  ["upload", "multipart", "s3", "bucket", "blob", "storage", "presigned", "attachment"],
  ["ratelimit", "throttle", "throttling", "quota", "429", "abuse"],
  // speed
  [
    "slow",
    "fast",
    "faster",
    "speed",
    "latency",
    "performance",
    "optimize",
    "profile",
    "profiler",
    "flamegraph",
    "bottleneck",
    "n+1",
    "dataloader",
    "memoize",
    "rerender",
    "virtualize",
    "debounce",
    "expensive",
    "lag",
    "sluggish",
  ],
  ["cache", "caching", "memoize", "memo", "memoization", "redis", "memcached", "ttl", "invalidate", "stale"],
  [
    "load",
    "loadtest",
    "benchmark",
    "throughput",
    "latency",
    "percentile",
    "p50",
    "p95",
    "p99",
    "rps",
    "concurrent",
    "concurrency",
    "stress",
    "k6",
    "artillery",
    "locust",
    "jmeter",
  ],
  // users and access
  [
    "signin",
    "auth",
    "authentication",
    "session",
    "password",
    "credential",
    "jwt",
    "oauth",
    "sso",
    "saml",
    "mfa",
    "2fa",
    "otp",
    "cookie",
    "logout",
    "expiry",
    "expire",
    "reauthenticate",
  ],
  ["permission", "role", "owner", "admin", "member", "invite", "authorization", "acl", "tenant", "idor", "rbac", "forbidden", "403"],
  [
    "security",
    "secure",
    "vulnerability",
    "injection",
    "xss",
    "csrf",
    "ssrf",
    "sanitize",
    "sanitise",
    "escape",
    "dompurify",
    "secret",
    "leak",
    "exploit",
    "hostile",
    "untrusted",
    "deserialization",
    "csp",
    "malicious",
    "html",
  ],
  ["pii", "gdpr", "personal", "card", "ssn", "redact", "mask", "sensitive", "privacy"],
  // interface
  [
    "translation",
    "english",
    "german",
    "french",
    "spanish",
    "italian",
    "portuguese",
    "dutch",
    "polish",
    "japanese",
    "chinese",
    "korean",
    "arabic",
    "hebrew",
    "persian",
    "russian",
    "turkish",
  ],
  ["a11y", "aria", "screenreader", "keyboard", "focus", "taborder", "contrast", "wcag", "alt", "voiceover", "nvda", "label", "trap"],
  ["responsive", "mobile", "phone", "tablet", "ipad", "viewport", "breakpoint", "layout", "sidebar", "grid", "flexbox", "flex", "overflow", "overlap", "media"],
  ["component", "hook", "props", "jsx", "tsx", "react", "usestate", "useeffect", "usememo", "usecallback"],
  ["form", "input", "field", "validation", "submit", "zod", "yup"],
  ["realtime", "websocket", "socket", "sse", "push", "reconnect", "live", "pubsub", "presence", "broadcast"],
  ["notification", "notify", "push", "toast", "alert", "bell", "badge"],
  // delivery
  [
    "test",
    "tests",
    "spec",
    "unit",
    "integration",
    "e2e",
    "fixture",
    "mock",
    "stub",
    "spy",
    "vitest",
    "jest",
    "mocha",
    "playwright",
    "cypress",
    "coverage",
    "assertion",
    "suite",
  ],
  ["ci", "pipeline", "workflow", "actions", "github", "gitlab", "circleci", "jenkins", "runner", "matrix", "artifact"],
  ["docker", "container", "image", "compose", "dockerfile", "kubernetes", "k8s", "helm", "pod"],
  ["deploy", "deployment", "staging", "production", "rollout", "canary", "blue", "green"],
  [
    "dependency",
    "dependencies",
    "deps",
    "package",
    "npm",
    "pnpm",
    "yarn",
    "upgrade",
    "outdated",
    "lockfile",
    "audit",
    "vulnerable",
    "cve",
    "advisory",
    "renovate",
    "dependabot",
    "unused",
  ],
  ["flag", "rollout", "toggle", "experiment", "canary", "percentage", "launchdarkly", "unleash", "gradual"],
  // running it
  ["log", "logger", "logging", "console", "pino", "winston", "trace", "tracing", "correlation", "structured"],
  ["monitoring", "metric", "metrics", "alert", "alerting", "dashboard", "grafana", "prometheus", "datadog", "sentry", "observability", "slo", "uptime"],
  ["incident", "outage", "downtime", "postmortem", "retrospective", "rca", "sev", "oncall", "pager", "pagerduty", "degraded"],
  [
    "job",
    "jobs",
    "background",
    "queue",
    "worker",
    "cron",
    "scheduled",
    "schedule",
    "nightly",
    "daily",
    "hourly",
    "periodic",
    "retry",
    "retries",
    "idempotent",
    "idempotency",
    "deadletter",
    "dlq",
    "bullmq",
    "sidekiq",
    "celery",
    "enqueue",
    "consumer",
  ],
  ["analytics", "tracking", "track", "telemetry", "segment", "mixpanel", "amplitude", "posthog", "funnel", "conversion", "pageview"],
  ["payment", "payments", "stripe", "checkout", "invoice", "billing", "subscription", "refund", "charge", "webhook", "paypal"],
  ["rollback", "revert", "restore", "undo"],
  ["git", "commit", "branch", "rebase", "merge", "pr", "squash", "conventional"],
];

/**
 * The words the phrases above join into one ("rate limiting" is read `ratelimit`), with the parts that say the topic
 * alone: a prompt's bare "limit" or "throttle ... rate" stands for the compound like a related word (round 10: fresh-r9's
 * "a limit per customer" reached the rate-limiting rule only through its body). Parts with other common meanings stay out
 * ("test", "load" of a page, "view", "tab" of a browser, "code", "call").
 */
const COMPOUNDS: ReadonlyArray<readonly [compound: string, parts: readonly string[]]> = [
  ["ratelimit", ["limit", "rate"]],
  ["screenreader", ["reader"]],
];

/**
 * One word of the prompt with the words it stands for: `related` are the other words of the groups it belongs to,
 * minus words the prompt says itself (those are concepts of their own).
 */
export interface Concept {
  term: string;
  related: string[];
  /** A typo read as a rule's word (prompt/typos.ts): scored, never the basis of an injection. */
  guessed?: boolean;
}

/** Weight of a related word's occurrence next to an occurrence of the word the prompt actually says. */
export const RELATED_WEIGHT = 0.5;

/** The prompt's stemmed words, each with the related words of its groups. */
export function queryConcepts(text: string, stem: Stem, reading?: Reading): Concept[] {
  const direct = [...new Set(terms(text, stem, reading))];
  if (reading?.related === false) return direct.map((term) => ({ term, related: [] }));
  const said = new Set(direct);
  return direct.map((term) => {
    const related = new Set<string>();
    for (const group of groupsOf(term, stem)) for (const word of RELATED[group]!) related.add(stem(word));
    for (const [compound, parts] of COMPOUNDS) if (parts.some((part) => stem(part) === term)) related.add(compound);
    return { term, related: [...related].filter((t) => !said.has(t)).sort() };
  });
}

/**
 * The groups holding a word that stems to `term`. Porter rewrites only a word's ending, and of what it keeps, at
 * most the last letter (y to i, a dropped e): a word stemmed to `term` begins with `term` but its last letter. So
 * only the table's words beginning with the same (up to three) letters are stemmed to check, not all of its
 * several hundred words on every prompt (a test holds every word of the table to this).
 */
function groupsOf(term: string, stem: Stem): number[] {
  const key = term.slice(0, Math.min(3, Math.max(1, term.length - 1)));
  const groups: number[] = [];
  for (const [group, word] of tableByLetter().get(key[0]!) ?? []) {
    if (groups.at(-1) !== group && word.startsWith(key) && stem(word) === term) groups.push(group);
  }
  return groups;
}

/** The table's words by their first letter, in table order (a prefix index of every word cost more to build than it saved). */
const tableByLetter = lazyConstant((): ReadonlyMap<string, ReadonlyArray<readonly [number, string]>> => {
  const byLetter = new Map<string, Array<[number, string]>>();
  for (let group = 0; group < RELATED.length; group++) {
    for (const word of RELATED[group]!) {
      const list = byLetter.get(word[0]!);
      if (list === undefined) byLetter.set(word[0]!, [[group, word]]);
      else list.push([group, word]);
    }
  }
  return byLetter;
});
