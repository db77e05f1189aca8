/**
 * The concept table `npm run relevance -- --embeddings=fake` gives the fake embedding server
 * (test/helpers/fake-embeddings.ts): one concept per topic of fixtures/relevance, each a list of words a person
 * might use for it. Written from the rules' descriptions and general vocabulary, without reading the labelled
 * prompts, but it is still a table written for this fixture by people who know its topics: NOT a model, and its
 * figures say that the plumbing (embedding, fusion, the likely tier) works, not how well a real model would do.
 */
export const RELEVANCE_CONCEPTS: Record<string, string[]> = {
  backup: ["backup", "backups", "restore", "snapshot", "snapshots", "dump", "recover", "recovery", "lost", "wiped"],
  incident: ["incident", "outage", "postmortem", "downtime", "timeline", "impact", "cause", "sev", "paged", "went"],
  seed: ["seed", "seeding", "fake", "sample", "dummy", "preview", "demo", "realistic", "populate", "empty"],
  analytics: ["analytics", "event", "events", "track", "tracking", "funnel", "segment", "amplitude", "mixpanel", "conversion"],
  ratelimit: ["rate", "limit", "limits", "throttle", "throttling", "burst", "bursts", "abuse", "quota", "429", "spam"],
  search: ["search", "opensearch", "elasticsearch", "index", "reindex", "mapping", "mappings", "ranking", "results", "query"],
  apidocs: ["openapi", "swagger", "reference", "spec", "document", "documentation", "endpoints", "publish"],
  loadtest: ["load", "throughput", "latency", "percentiles", "p99", "k6", "stress", "requests", "benchmark", "capacity"],
  pdf: ["pdf", "report", "reports", "chart", "charts", "export", "printable", "page", "layout", "invoice"],
  graphql: ["graphql", "resolver", "resolvers", "schema", "mutation", "mutations", "query", "queries", "apollo", "n"],
  jobs: ["job", "jobs", "queue", "queues", "worker", "workers", "retry", "retries", "background", "cron", "dead", "letter"],
  payments: ["stripe", "payment", "payments", "charge", "charged", "refund", "refunds", "billing", "checkout", "card", "subscription", "twice"],
  apierrors: ["error", "errors", "status", "404", "500", "400", "handler", "handlers", "response", "exception"],
  auth: ["auth", "login", "logout", "session", "sessions", "token", "tokens", "permission", "permissions", "password", "sign", "jwt", "oauth", "role"],
  ci: ["ci", "pipeline", "pipelines", "workflow", "workflows", "github", "actions", "flaky", "build", "cache", "red"],
  migrations: ["migration", "migrations", "column", "columns", "table", "alter", "rollback", "schema", "database", "sql", "postgres"],
  dependencies: ["dependency", "dependencies", "npm", "package", "packages", "upgrade", "bump", "audit", "vulnerability", "lockfile", "renovate"],
  docker: ["docker", "container", "containers", "image", "images", "dockerfile", "compose", "kubernetes", "local"],
  flags: ["flag", "flags", "toggle", "rollout", "gradual", "percentage", "experiment", "launchdarkly", "kill", "switch"],
  i18n: ["translate", "translation", "translations", "locale", "locales", "language", "spanish", "french", "german", "currency", "dates", "plural"],
  logging: ["log", "logs", "logging", "logger", "level", "debug", "verbose", "noisy", "pii", "trace"],
  performance: ["slow", "performance", "profile", "profiling", "fast", "faster", "memoize", "memoization", "cpu", "lag", "speed", "optimize"],
  react: ["react", "component", "components", "hook", "hooks", "props", "jsx", "tsx", "render", "state"],
  release: ["release", "releases", "version", "versioning", "changelog", "publish", "semver", "tag", "ship"],
  styling: ["css", "style", "styles", "styling", "theme", "dark", "mode", "colors", "responsive", "mobile", "tokens", "tailwind"],
  testing: ["test", "tests", "testing", "vitest", "jest", "mock", "mocks", "fixture", "fixtures", "unit", "integration", "coverage", "assert"],
  email: ["email", "emails", "mail", "smtp", "template", "templates", "unsubscribe", "newsletter", "inbox", "transactional"],
  monitoring: ["metrics", "metric", "dashboard", "dashboards", "alert", "alerts", "alerting", "grafana", "prometheus", "pager", "monitoring"],
  security: ["security", "injection", "xss", "scripting", "sanitize", "escape", "deserialization", "secret", "secrets", "vulnerable", "csrf"],
  a11y: ["accessibility", "a11y", "keyboard", "screen", "reader", "aria", "focus", "contrast", "tab", "blind"],
  realtime: ["realtime", "websocket", "websockets", "socket", "live", "presence", "reconnect", "reconnects", "cursors", "typing", "push", "wakes"],
  uploads: ["upload", "uploads", "file", "files", "attachment", "attachments", "s3", "bucket", "storage", "image", "avatar", "size"],
};
