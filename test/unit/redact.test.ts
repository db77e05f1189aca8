import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { redactSecrets } from "../../src/core/redact.js";
import { createRunMemo } from "../../src/core/run-memo.js";
import { select } from "../helpers/tree.js";

// Test values only: the documented AWS example key and made-up tokens of the right shapes.
const SAMPLES: Array<[string, string]> = [
  ["-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAx1\nabc\n-----END RSA PRIVATE KEY-----", "private-key"],
  ["-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----", "private-key"],
  ["aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "aws-access-key"],
  ["aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws-secret-key"],
  ['{ "type": "service_account", "private_key_id": "0123456789abcdef0123456789abcdef01234567" }', "gcp-service-account"],
  ['"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBg\\n-----END PRIVATE KEY-----\\n"', "private-key"],
  ["token: ghp_0123456789abcdefghijABCDEFGHIJ012345", "github-token"],
  ["GITHUB_TOKEN=github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "github-token"],
  ["glpat-abcdefghij0123456789", "gitlab-token"],
  ["SLACK=xoxb-1234567890-abcdefghij", "slack-token"],
  ["https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX", "slack-webhook"],
  ["//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789", "npm-token"],
  ["Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "jwt"],
  ["DB_PASSWORD=s3cr3t-Passw0rd!", "password"],
  ['api_key: "k3y_9f8e7d6c5b4a"', "password"],
];

const HARMLESS = [
  "password = ${DB_PASSWORD}",
  "password: <your password here>",
  "api_key = process.env.API_KEY",
  "Set the password to something long and memorable.",
  "passwords are hashed with argon2",
  "secret = changeme-please-1",
  "the token is read from GITHUB_TOKEN",
  "AKIA is the prefix of AWS access keys",
  "set secret = alice-password",
  "<Provider accessToken={publicAccessToken}>",
  "eyJ is how a JWT starts",
  // An AWS ARN names a secret (its `secret:` resource type), it holds none.
  'entraIdConfigSecretArn: "arn:aws:secretsmanager:ca-central-1:{{account}}:secret:secret/name-123456"',
  "SecretId: arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-Ab12Cd",
  // A token's shape written as a mask (READMEs show where the user's own token goes).
  '--env HF_TOKEN="hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"',
  "GH_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
  "aws_access_key_id = AKIAXXXXXXXXXXXXXXXX",
  "OPENAI_API_KEY=sk-proj-xxxxxxxxxxxxxxxxxxxxxxxxxxxx",
];

test("each kind of credential is replaced by a marker naming its kind", () => {
  for (const [text, kind] of SAMPLES) {
    const { text: out, redactions } = redactSecrets(`before\n${text}\nafter`);
    assert.ok(
      redactions.some((r) => r.kind === kind),
      `${kind} not found in ${text}`,
    );
    assert.match(out, `[REDACTED:${kind}]`);
    assert.match(out, /^before\n/);
    assert.match(out, /\nafter$/);
  }
});

test("a credential with nothing around it is found (the quick scan that skips clean files knows every kind)", () => {
  const bare: Array<[string, string]> = [
    ["-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----", "private-key"],
    ["ASIAIOSFODNN7EXAMPLE", "aws-access-key"],
    ["secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws-secret-key"],
    ['"private_key_id": "0123456789abcdef0123456789abcdef01234567"', "gcp-service-account"],
    ["gho_0123456789abcdefghijABCDEFGHIJ012345", "github-token"],
    ["github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "github-token"],
    ["glpat-abcdefghij0123456789", "gitlab-token"],
    ["xoxp-1234567890-abcdefghij", "slack-token"],
    ["https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX", "slack-webhook"],
    ["npm_abcdefghijklmnopqrstuvwxyz0123456789", "npm-token"],
    [":_authToken=abcdefgh123456789", "npm-token"],
    ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N", "jwt"],
    ["PWD=s3cr3tPazzw0rd99", "password"],
    ["apikey=k3y9f8e7d6c5b4a", "password"],
    ["Auth-Token: k3y9f8e7d6c5b4a1", "password"],
    ["CLIENT_SECRET=k3y9f8e7d6c5b4a1", "password"],
  ];
  for (const [text, kind] of bare)
    assert.ok(
      redactSecrets(text).redactions.some((r) => r.kind === kind),
      `${kind} not found in ${text}`,
    );
});

test("the credential itself is gone from the output", () => {
  const { text } = redactSecrets("key AKIAIOSFODNN7EXAMPLE and ghp_0123456789abcdefghijABCDEFGHIJ012345");
  assert.not.match(text, "AKIAIOSFODNN7EXAMPLE");
  assert.not.match(text, "ghp_0123");
});

test("placeholders, variable references and prose are left alone", () => {
  for (const text of HARMLESS) assert.equal(redactSecrets(text).redactions, [], text);
});

test("redactions report the line they start on", () => {
  const { redactions } = redactSecrets("one\ntwo\nkey=AKIAIOSFODNN7EXAMPLE\n");
  assert.equal(redactions, [{ kind: "aws-access-key", line: 3 }]);
});

test("a build redacts rule files and config entries, and warns with file and line", () => {
  const s = select(
    { "AGENTS.md": "# Deploy\n\nUse key AKIAIOSFODNN7EXAMPLE for staging." },
    { custom: [{ id: "token", content: "ghp_0123456789abcdefghijABCDEFGHIJ012345" }] },
  );
  assert.not.match(JSON.stringify(s.entries), /AKIAIOSFODNN7EXAMPLE|ghp_0123/);
  assert.ok(s.warnings.some((w) => w.file === "AGENTS.md" && w.line === 3 && /aws-access-key/.test(w.message)));
  assert.ok(s.warnings.some((w) => w.file === "custom:token" && /github-token/.test(w.message)));
});

test("a build of a few files finds a credential in any one of them, a hint joined by removing hidden characters too, warning in file order", () => {
  const prose = "Keep the build green and the commits small.\n".repeat(40);
  const s = select({
    "AGENTS.md": `# Team\n\n${prose}`,
    ".cursor/rules/a.mdc": `---\nalwaysApply: true\n---\n${prose}deploy with gh\u200Bp_0123456789abcdefghijABCDEFGHIJ012345\n`,
    ".cursor/rules/b.mdc": `---\nalwaysApply: true\n---\nkey AKIAIOSFODNN7EXAMPLE and th\u200Ben\n`,
  });
  assert.not.match(JSON.stringify(s.entries), /AKIAIOSFODNN7EXAMPLE|ghp_0123|gh\u200Bp_/);
  const order = s.warnings.map((w) => `${w.file} ${/redacted a ([\w-]+)/.exec(w.message)?.[1] ?? "hidden"}`);
  assert.equal(
    order.filter((w) => w.startsWith(".cursor")),
    [".cursor/rules/a.mdc hidden", ".cursor/rules/a.mdc github-token", ".cursor/rules/b.mdc hidden", ".cursor/rules/b.mdc aws-access-key"],
  );
});

test("redact: false keeps the text as it is", () => {
  const s = select({ "AGENTS.md": "key AKIAIOSFODNN7EXAMPLE" }, { configure: (c) => void (c.redact = false) });
  assert.match(s.entries[0]!.content, "AKIAIOSFODNN7EXAMPLE");
});

test("a credential a rule's frontmatter spells with a quoted string's escapes is redacted, and kept with redact: false", () => {
  // "\x67hp_" decodes to "ghp_": YAML spells the token only once the file's text has passed the gate.
  const token = "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
  const tree = { ".cursor/rules/deploy.mdc": `---\ndescription: "deploy with \\x67hp_${token}"\nalwaysApply: true\n---\nDeploy.\n` };
  const description = (s: ReturnType<typeof select>) => s.candidates.find((c) => c.path === ".cursor/rules/deploy.mdc")?.description;
  assert.is(description(select(tree)), "deploy with [REDACTED:github-token]");
  const memo = createRunMemo();
  const kept = select(tree, { memo, configure: (c) => void (c.redact = false) });
  assert.is(description(kept), `deploy with ghp_${token}`);
  assert.not.ok(
    kept.warnings.some((w) => w.message.includes("redacted")),
    JSON.stringify(kept.warnings),
  );
  // What that run saved for later runs holds no reading made with redaction off: the next run's default redacts.
  const saved = memo.warm.takeChanges() ?? undefined;
  assert.is(description(select(tree, { memo: createRunMemo(saved) })), "deploy with [REDACTED:github-token]");
});

test("a character a rule's frontmatter spells with an escape is removed with a warning, and kept with hiddenCharacters: keep", () => {
  // "\u200B" decodes to a zero-width space inside a word: the file's own text holds none.
  const tree = { ".cursor/rules/deploy.mdc": '---\ndescription: "Deploy\\u200Bnow"\nalwaysApply: true\n---\nDeploy.\n' };
  const description = (s: ReturnType<typeof select>) => s.candidates.find((c) => c.path === ".cursor/rules/deploy.mdc")?.description;
  const stripped = select(tree);
  assert.is(description(stripped), "Deploynow");
  assert.ok(
    stripped.warnings.some((w) => w.message.includes('"description": its escapes spell')),
    JSON.stringify(stripped.warnings),
  );
  const memo = createRunMemo();
  const kept = select(tree, { memo, configure: (c) => void (c.hiddenCharacters = "keep") });
  assert.is(description(kept), "Deploy\u200Bnow");
  assert.not.ok(
    kept.warnings.some((w) => w.message.includes("its escapes spell")),
    JSON.stringify(kept.warnings),
  );
  // What that run saved holds no reading made with the switch off: the next run's default removes it.
  const saved = memo.warm.takeChanges() ?? undefined;
  assert.is(description(select(tree, { memo: createRunMemo(saved) })), "Deploynow");
});

test("every kind is found alike in a short text (searched for hints) and by the patterns (long texts, --all)", () => {
  const a = (n: number) => "Q7hZk2Lm9Xp4Rt8Vw3Nc6Yb1Jd5Fg0Ks".repeat(8).slice(0, n);
  const hex = (n: number) => "0123456789abcdef".repeat(8).slice(0, n);
  const bare: Array<[string, string]> = [
    ["-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----", "private-key"],
    ["-----BEGIN EC PRIVATE KEY-----\nMIIEpAIBAAKCAQEAx1", "private-key"],
    ["AKIAIOSFODNN7EXAMPLE", "aws-access-key"],
    ["ACCAIOSFODNN7EXAMPLE", "aws-access-key"],
    ["AWS_SECRET=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws-secret-key"],
    [`"private_key_id": "${hex(40)}"`, "gcp-service-account"],
    [`AIza${a(35)}`, "google-api-key"],
    [`sk-ant-api03-${a(40)}`, "anthropic-api-key"],
    [`sk-proj-${a(30)}`, "openai-api-key"],
    [`sk_live_${a(24)}`, "stripe-key"],
    [`rk_test_${a(24)}`, "stripe-key"],
    [`whsec_${a(32)}`, "stripe-key"],
    [`hf_${a(34)}`, "huggingface-token"],
    [`ghr_${a(36)}`, "github-token"],
    [`glagent-${a(24)}`, "gitlab-token"],
    [`xoxe-${a(20)}`, "slack-token"],
    [`https://hooks.slack.com/workflows/T0/B0/${a(24)}`, "slack-webhook"],
    [`https://canary.discord.com/api/webhooks/123/${a(30)}`, "discord-webhook"],
    [`123456789:AA${a(33)}`, "telegram-bot-token"],
    [`npm_${a(36)}`, "npm-token"],
    [`pypi-AgE${a(60)}`, "pypi-token"],
    [`dckr_pat_${a(24)}`, "docker-token"],
    [`SG.${a(22)}.${a(43)}`, "sendgrid-key"],
    [`SK${hex(32)}`, "twilio-key"],
    [`shpss_${hex(32)}`, "shopify-token"],
    [`dop_v1_${hex(64)}`, "digitalocean-token"],
    [`lin_api_${a(40)}`, "linear-key"],
    [`dapi${hex(32)}`, "databricks-token"],
    [`NRAK-${"ABCDEFGHIJKLMNOPQRSTUVWXYZ0"}`, "newrelic-key"],
    [`sq0atp-${a(30)}`, "square-token"],
    [`AGE-SECRET-KEY-1${"QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L".repeat(2).slice(0, 58)}`, "age-secret-key"],
    [`gsk_${a(50)}`, "ai-api-key"],
    [`xai-${a(70)}${a(10)}`, "ai-api-key"],
    [`r8_${a(37)}`, "ai-api-key"],
    [`pplx-${a(48)}`, "ai-api-key"],
    [`AccountKey=${a(86)}==`, "azure-storage-key"],
    [`abc1Q~${a(32)}`, "azure-client-secret"],
    [`eyJ${a(10)}.eyJ${a(10)}.${a(10)}`, "jwt"],
    [`AUTHORIZATION: Bearer ${a(24)}`, "authorization-header"],
    [`redis://admin:${a(16)}@cache`, "url-credentials"],
    [`ACCESS_TOKEN=${a(16)}`, "password"],
    [`Passwd: ${a(16)}`, "password"],
  ];
  for (const [text, kind] of bare) {
    const searched = redactSecrets(text);
    assert.ok(
      searched.redactions.some((r) => r.kind === kind),
      `${kind} not found in ${text}`,
    );
    assert.equal(searched, redactSecrets(text, "patterns"), text);
  }
  for (const text of HARMLESS) assert.equal(redactSecrets(text), redactSecrets(text, "patterns"));
  // All of them in one text, between words that hold hints of their own (`task`, `global`, `token`): hints that
  // overlap or start at the same place (`sk`, `sk-`, `sk-ant-`, `gsk_`) each bring their rule.
  const joined = bare.map(([text]) => `the task and the global token: ${text}`).join("\n");
  const found = new Set(redactSecrets(joined, "patterns").redactions.map((r) => r.kind));
  for (const [, kind] of bare) assert.ok(found.has(kind), `${kind} not found among the others`);
});

/*
 * The three kinds scanned by code (core/redact.ts: jwtMatches, closedKeys, passwordMatches) held to the patterns they
 * replaced (which backtracked over a long text without end), on short texts made of their pieces: each alphabet
 * holds the hint of one kind only, so the other patterns stay quiet.
 */
const masked = (v: string) => {
  let longest = 0;
  for (let i = 0, run = 0; i < v.length; i++) longest = Math.max(longest, (run = i > 0 && v[i] === v[i - 1] ? run + 1 : 1));
  return longest >= 8 && longest * 2 >= v.length;
};
const textOf = (pieces: string[]) => fc.array(fc.constantFrom(...pieces), { maxLength: 14 }).map((p) => p.join(""));
const RUNS = { numRuns: 10_000 };

test("JWTs are found where the JWT pattern found them, on any text of their pieces", () => {
  const pattern = /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;
  const text = textOf([
    "eyJ",
    "eyJhbGciOiJIUzI1NiJ9",
    "eyJabcdefgh",
    ".eyJabcdefgh",
    ".abcdefgh",
    "eyJabcdefg",
    "abcdefgh",
    ".",
    "-",
    "_",
    " ",
    "\n",
    "a",
    "é",
  ]);
  fc.assert(
    fc.property(text, (t) =>
      assert.is(
        redactSecrets(t).text,
        t.replace(pattern, (m) => (masked(m) ? m : "[REDACTED:jwt]")),
      ),
    ),
    RUNS,
  );
});

test("private keys with an END line are found where the private-key pattern found them, on any text of their pieces", () => {
  const closed = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END \1PRIVATE KEY(?: BLOCK)?-----/g;
  const open = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:(?:\r?\n|\\n)[ \t]*(?:[A-Za-z0-9+/=]+|[A-Za-z-]+: [^\n]*)[ \t]*)*/g;
  const pieces = [
    "-----BEGIN RSA PRIVATE KEY-----",
    "-----END RSA PRIVATE KEY-----",
    "-----BEGIN PRIVATE KEY-----",
    "-----END PRIVATE KEY-----",
    "-----END DSA PRIVATE KEY-----",
    "-----BEGIN ",
    "BEGIN ",
    "END ",
    "PRIVATE KEY-----",
    "PRIVATE KEY BLOCK-----",
    "RSA ",
    "\n",
    "MIIE",
    " ",
    "x",
  ];
  fc.assert(
    fc.property(textOf(pieces), (t) => assert.is(redactSecrets(t).text, t.replace(closed, "[REDACTED:private-key]").replace(open, "[REDACTED:private-key]"))),
    RUNS,
  );
});

test("password assignments are found where the password pattern found them, ARNs' secret: left alone, on any text of their pieces", () => {
  const pattern =
    /(?<![A-Za-z])(?:password|passwd|pwd|secret|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|client[_-]?secret)(?<!\barn:[^\s"'`]*)\b["']?\s*[:=]\s*(["']?)([^\s"'`,;]{12,})\1/gi;
  const placeholder = /^(\$\{?|<|\{|%|process\.env|os\.environ|env\(|your[-_]|example|changeme|xxx|\*{3})/i;
  const skip = (v: string) => placeholder.test(v) || !/[A-Za-z]/.test(v) || !/\d/.test(v) || /^(.)\1+$/.test(v) || masked(v);
  // The token keywords in every spelling: the rule runs only for a text holding one of its hints (not `token` alone).
  const pieces = [
    "password",
    "pwd",
    "secret",
    "client_secret",
    "access_token",
    "ACCESS-TOKEN",
    "accesstoken",
    "Auth_Token",
    "authtoken",
    "auth-",
    "token",
    "arn:",
    "aws:",
    "=",
    ":",
    '"',
    "'",
    " ",
    "\n",
    "`",
    ",",
    "-",
    "1",
    "Zq81kLm2Xr7v",
    "abc123",
  ];
  const expected = (t: string) =>
    t.replace(pattern, (match: string, _quote: string, value: string) => {
      if (skip(value)) return match;
      const at = match.lastIndexOf(value);
      return `${match.slice(0, at)}[REDACTED:password]${match.slice(at + value.length)}`;
    });
  fc.assert(
    fc.property(textOf(pieces), (t) => assert.is(redactSecrets(t).text, expected(t))),
    RUNS,
  );
});

test("a local development database's default credentials are no secret; a real password for a loopback host is redacted as weak", () => {
  for (const text of ["DATABASE_URL=postgres://user:pass@localhost:5432/dbname", "docker compose up, then postgres://postgres:postgres@127.0.0.1/app"]) {
    assert.equal(redactSecrets(text), { text, redactions: [] }, text);
  }
  const local = redactSecrets("local: postgres://app:Xk92mQz7LpR4@localhost:5432/app");
  assert.is(local.text, "local: postgres://app:[REDACTED:url-credentials]@localhost:5432/app");
  assert.equal(local.redactions, [{ kind: "url-credentials", line: 1, weak: true }]);
  // The same placeholder-looking password for a host elsewhere is still taken out.
  assert.is(redactSecrets("postgres://postgres:postgres@db.example.net/app").text, "postgres://postgres:[REDACTED:url-credentials]@db.example.net/app");
});

test.run();
