import { test } from "uvu";
import * as assert from "uvu/assert";
import { fingerprint } from "../../src/core/fingerprint.js";

test("a fingerprint is 28 hex characters, the same for the same text and different for a one-character change", () => {
  const a = fingerprint("Handlers return a typed Result.");
  assert.match(a, /^[0-9a-f]{28}$/);
  assert.is(fingerprint("Handlers return a typed Result."), a);
  assert.is.not(fingerprint("Handlers return a typed result."), a);
  assert.is.not(fingerprint(""), fingerprint(" "));
});

test("no two of 20,000 distinct short texts share a fingerprint", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 20_000; i++) seen.add(fingerprint(`rule ${i}\n`));
  assert.is(seen.size, 20_000);
});

test("fingerprints stay what earlier versions recorded, so a session's records survive an upgrade", () => {
  assert.is(fingerprint(""), "10c329583afc3b0dc0cfa5aed872");
  assert.is(fingerprint("Handlers return a typed Result."), "11dbcaf2e09f780ee4706374b6d5");
  assert.is(fingerprint("é∑😀 rule\n"), "09fc5198ce9baf0f9303a9db8916");
});

test.run();
