/**
 * Precision of the credential patterns, as properties: generated credentials of every kind, in the shapes their
 * issuers use (random bodies, not fixed samples), are each redacted under their kind wherever they sit in prose;
 * generated innocent strings that look random too (git SHAs, lockfile integrity hashes, UUIDs, base64 images) never
 * are. Every value here is random: none is a real credential.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { PLACEHOLDER_WORDS, redactSecrets, safeMessage } from "../../src/core/redact.js";

const RUNS = { numRuns: 150 };
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const HEX = "0123456789abcdef";
const ALNUM = UPPER + LOWER + DIGITS;
const URLSAFE = `${ALNUM}_-`;
const B64 = `${ALNUM}+/`;
const chars = (alphabet: string, min: number, max = min) => fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((a) => a.join(""));
/** A generated value: at least one letter and one digit, as issued tokens have. */
const mixed = (alphabet: string, min: number, max = min) => chars(alphabet, min - 2, max - 2).map((body) => `a${body}7`);

const SECRETS: Array<[kind: string, value: fc.Arbitrary<string>]> = [
  ["anthropic-api-key", chars(URLSAFE, 93).map((b) => `sk-ant-api03-${b}AA`)],
  ["anthropic-api-key", chars(URLSAFE, 40, 90).map((b) => `sk-ant-admin01-${b}`)],
  ["openai-api-key", chars(URLSAFE, 100, 160).map((b) => `sk-proj-${b}`)],
  ["openai-api-key", fc.tuple(chars(ALNUM, 20), chars(ALNUM, 20)).map(([a, b]) => `sk-${a}T3BlbkFJ${b}`)],
  ["stripe-key", fc.tuple(fc.constantFrom("sk_live_", "sk_test_", "rk_live_"), chars(ALNUM, 24, 99)).map(([p, b]) => p + b)],
  ["google-api-key", chars(URLSAFE, 35).map((b) => `AIza${b}`)],
  ["huggingface-token", chars(UPPER + LOWER, 34).map((b) => `hf_${b}`)],
  ["github-token", fc.tuple(fc.constantFrom("ghp_", "gho_", "ghs_"), chars(ALNUM, 36)).map(([p, b]) => p + b)],
  ["gitlab-token", chars(URLSAFE, 20).map((b) => `glpat-${b}`)],
  ["slack-token", fc.tuple(chars(DIGITS, 11), chars(DIGITS, 12), chars(ALNUM, 24)).map(([a, b, c]) => `xoxb-${a}-${b}-${c}`)],
  ["aws-access-key", chars(UPPER + DIGITS, 16).map((b) => `AKIA${b}`)],
  ["npm-token", chars(ALNUM, 36).map((b) => `npm_${b}`)],
  ["jwt", fc.tuple(chars(URLSAFE, 20, 80), chars(URLSAFE, 43)).map(([p, s]) => `eyJhbGciOiJIUzI1NiJ9.eyJ${p}.${s}`)],
  ["sendgrid-key", fc.tuple(chars(URLSAFE, 22), chars(URLSAFE, 43)).map(([a, b]) => `SG.${a}.${b}`)],
  ["twilio-key", chars(HEX, 32).map((b) => `SK${b}`)],
  ["telegram-bot-token", fc.tuple(chars(DIGITS, 9), chars(URLSAFE, 33)).map(([a, b]) => `${a}:AA${b}`)],
  ["docker-token", chars(URLSAFE, 27).map((b) => `dckr_pat_${b}`)],
  ["digitalocean-token", chars(HEX, 64).map((b) => `dop_v1_${b}`)],
  ["linear-key", chars(ALNUM, 40).map((b) => `lin_api_${b}`)],
  ["shopify-token", chars(HEX, 32).map((b) => `shpat_${b}`)],
  ["pypi-token", chars(URLSAFE, 60, 120).map((b) => `pypi-AgEIcHlwaS5vcmc${b}`)],
  ["age-secret-key", chars(UPPER + DIGITS, 58).map((b) => `AGE-SECRET-KEY-1${b}`)],
  ["azure-client-secret", fc.tuple(chars(ALNUM, 3), chars(`${ALNUM}_~.-`, 31, 34)).map(([a, b]) => `${a}8Q~${b}`)],
  ["ai-api-key", chars(ALNUM, 52).map((b) => `gsk_${b}`)],
  ["private-key", fc.array(chars(B64, 64), { minLength: 2, maxLength: 12 }).map((lines) => `-----BEGIN RSA PRIVATE KEY-----\n${lines.join("\n")}`)],
  [
    "private-key",
    fc
      .array(chars(B64, 64), { minLength: 2, maxLength: 12 })
      .map((lines) => `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join("\n")}\n-----END OPENSSH PRIVATE KEY-----`),
  ],
  ["authorization-header", mixed(URLSAFE, 24, 64).map((b) => `Authorization: Bearer ${b}`)],
  ["url-credentials", fc.tuple(chars(LOWER, 3, 10), mixed(ALNUM, 10, 24)).map(([u, p]) => `postgres://${u}:${p}@db.internal:5432/app`)],
  ["github-token", fc.tuple(chars(LOWER, 3, 10), chars(ALNUM, 36)).map(([u, t]) => `https://${u}:ghp_${t}@github.com/org/repo.git`)],
  ["password", mixed(ALNUM, 16, 32).map((b) => `DB_PASSWORD="${b}"`)],
];

/** The generated part of a value, without the words around it (`DB_PASSWORD="…"`, `Bearer …`, `user:…@`). */
function generatedPart(value: string): string {
  const quoted = /="([^"]*)"$/.exec(value);
  if (quoted) return quoted[1]!;
  if (value.startsWith("Authorization: Bearer ")) return value.slice("Authorization: Bearer ".length);
  const credentials = /:\/\/[^:/@]+:([^@]+)@/.exec(value);
  return credentials ? credentials[1]! : value;
}

const prose = fc.constantFrom("Deploy with", "The key is", "export KEY=", "- token:", "see", "```\n", "");
const after = fc.constantFrom(" for staging.", "\nThen run the tests.", "", "`", "\n```");

test("every generated credential of every kind is redacted under its kind, and its value is gone", () => {
  for (const [kind, secret] of SECRETS) {
    fc.assert(
      fc.property(prose, secret, after, (before, value, end) => {
        const { text, redactions } = redactSecrets(`# Notes\n\n${before} ${value}${end}\n`);
        // A random body spells a placeholder's word now and then ("aAAtOkeN7"): still redacted, reported as weak.
        const byChance = PLACEHOLDER_WORDS.test(generatedPart(value));
        assert.ok(
          redactions.some((r) => r.kind === kind && (r.weak !== true || byChance)),
          `${kind}: ${JSON.stringify(redactions)} for ${value}`,
        );
        const body =
          value.includes("://") && value.includes("@") ? value.slice(value.lastIndexOf(":", value.indexOf("@")) + 1, value.indexOf("@")) : value.slice(-16);
        assert.not.ok(text.includes(body), `${kind}: ${body} left in ${text}`);
      }),
      RUNS,
    );
  }
});

const INNOCENT: Array<[what: string, value: fc.Arbitrary<string>]> = [
  ["a git SHA", chars(HEX, 40).map((h) => `Fixed in commit ${h} (see ${h.slice(0, 7)}).`)],
  ["a sha256 digest", chars(HEX, 64).map((h) => `sha256:${h}`)],
  [
    "a lockfile entry",
    fc
      .tuple(chars(LOWER, 3, 12), chars(B64, 86))
      .map(
        ([name, hash]) =>
          `"node_modules/${name}": {\n  "resolved": "https://registry.npmjs.org/${name}/-/${name}-1.2.3.tgz",\n  "integrity": "sha512-${hash}=="\n}`,
      ),
  ],
  ["a UUID", fc.uuid().map((u) => `id: ${u}`)],
  ["a base64 image", chars(B64, 200, 3000).map((b) => `![logo](data:image/png;base64,iVBORw0KGgo${b}=)`)],
  ["a yarn.lock checksum", chars(HEX, 128).map((h) => `  checksum: ${h}`)],
  [
    "a link",
    fc
      .tuple(chars(LOWER, 3, 10), chars(LOWER + DIGITS, 3, 10))
      .map(([org, repo]) => `See https://github.com/${org}/${repo}/blob/main/README.md and git@github.com:${org}/${repo}.git`),
  ],
];

test("generated innocent strings (SHAs, integrity hashes, UUIDs, base64 images, links) are never redacted", () => {
  for (const [what, value] of INNOCENT) {
    fc.assert(
      fc.property(value, (text) => {
        const out = redactSecrets(text);
        assert.equal(out.redactions, [], `${what}: ${text.slice(0, 200)}`);
        assert.is(out.text, text);
      }),
      RUNS,
    );
  }
});

test("placeholders in READMEs are not credentials: none, or redacted as weak (doctor then warns, never errs)", () => {
  // A local development database's defaults (issue 44 item 13) are no credential at all.
  for (const text of [
    'password = "changeme"',
    'api_key = "your-key-here"',
    "API_KEY=<your api key>",
    "token: ${GITHUB_TOKEN}",
    "postgres://user:pass@localhost:5432/db",
    "postgres://user:password@localhost/db",
  ]) {
    assert.equal(redactSecrets(text).redactions, [], text);
  }
  for (const text of [
    "postgres://user:pass@db.internal:5432/db",
    "postgres://app:Xk92mQz7LpR4@localhost/db",
    "redis://default:secret@cache:6379",
    "Authorization: Bearer secret-token",
  ]) {
    const { redactions, text: out } = redactSecrets(text);
    assert.ok(redactions.length === 1 && redactions[0]!.weak === true, `${text}: ${JSON.stringify(redactions)}`);
    assert.match(out, "[REDACTED:");
  }
  for (const text of ["curl -H 'Authorization: Bearer $TOKEN'", "Authorization: Bearer <token>", 'curl -H "Authorization: Bearer YOUR_TOKEN"'])
    assert.equal(redactSecrets(text).redactions, [], text);
});

test("a message about a file leaves without its secrets and hidden characters, and short", () => {
  const out = safeMessage(`config.yaml: got "sk-ant-api03-${"a1".repeat(40)}" x\u202Ey ${"z".repeat(2000)}`);
  assert.not.match(out, "a1a1a1");
  assert.not.match(out, "\u202E");
  assert.match(out, "[REDACTED:anthropic-api-key]");
  assert.ok(out.length < 500, String(out.length));
});

test.run();
