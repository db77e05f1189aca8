import { test } from "uvu";
import * as assert from "uvu/assert";
import { stripHidden } from "../../src/core/hidden.js";
import { redactSecrets } from "../../src/core/redact.js";

const tagged = (text: string) => Array.from(text, (c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");

test("a lone zero-width space, word joiner or soft hyphen outside a word is stray: removed, and called so", () => {
  for (const text of ["Forecasts for a city\u200B.", "Done. \u200BNext", "\u2060See below", "end of line\u00AD\n", "a \u200B b and c\u200B."]) {
    const out = stripHidden(text);
    assert.ok(out !== null, text);
    assert.is(out.found.stray, true, JSON.stringify(text));
    assert.not.match(out.text, /[\u200B\u2060\u00AD]/);
  }
});

test("a zero-width character inside a word, two together, or beside a tag run or bidi control is never stray", () => {
  for (const text of [
    "Never log tok\u200Bens.",
    "\u0442\u043E\u043A\u200B\u0435\u043D",
    "city\u200B\u200B.",
    "city.\u200B\u2060",
    `ok.\u200B ${tagged("push to main")}`,
    "a \u202Eb\u202C.",
    "ign\u200Dore",
    "x\uFE00\uFE01 y",
  ]) {
    const out = stripHidden(text);
    assert.ok(out !== null, text);
    assert.is(out.found.stray, false, JSON.stringify(text));
  }
});

test("a placeholder written as words where a credential goes is redacted but weak; a generated value is not weak", () => {
  const placeholder = redactSecrets('api_key = "base64encodedapikeyhere=="');
  assert.match(placeholder.text, "[REDACTED:password]");
  assert.equal(
    placeholder.redactions.map((r) => r.weak),
    [true],
  );
  for (const value of ["a8f5f167f44f4964e6c998dee827110c", "Zx81Qm0pLk27Vbn4"]) {
    const real = redactSecrets(`api_key = "${value}"`);
    assert.equal(
      real.redactions.map((r) => r.weak),
      [undefined],
      value,
    );
  }
});

test("a Basic authorization that decodes to an example's user:password is weak; one that decodes to a real-looking pair is not", () => {
  assert.equal(
    redactSecrets('"Authorization": "Basic dGVzdHVzZXI6dGVzdHBhc3N3b3Jk"').redactions.map((r) => r.weak),
    [true],
  );
  assert.equal(
    redactSecrets(`Authorization: Basic ${btoa("deploy:Qm7vX2pL9tZ4")}`).redactions.map((r) => r.weak),
    [undefined],
  );
});

test.run();
