/**
 * Issue 42: random texts full of controls, escape sequences, invisible characters and credentials, through the gate
 * (core/text-gate.ts) and the terminal escaper (core/terminal-escape.ts): no control but tab, line feed and carriage
 * return comes out of the gate, no invisible character outside the documented exceptions, no credential; nothing a
 * terminal obeys comes out of the escaper but ctxinject's own colours; both are idempotent.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { gateName, gateText } from "../../src/core/text-gate.js";
import { escapeTerminal } from "../../src/core/terminal-escape.js";

const AWS_KEY = ["AKIA", "Q3EGRT7VHLW2XK4P"].join("");
const GITHUB_TOKEN = ["ghp", "_", "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"].join("");
const WALES = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}";

/** Pieces a hostile text is made of, and ordinary text around them. */
const PIECES = [
  "\u001b",
  "\u001b[",
  "\u001b[8m",
  "\u001b[2J",
  "\u001b]52;c;ZXZpbA==\u0007",
  "\u001b]0;t\u001b\\",
  "\u001b]8;;http://e\u0007",
  "\u009b",
  "\u009d",
  "\u009f",
  "\u0090",
  "\u009c",
  "\u0000",
  "\u0007",
  "\u0008",
  "\u000b",
  "\u000c",
  "\u007f",
  "\u0085",
  "\r",
  "\n",
  "\t",
  "\r\n",
  "\u00ad",
  "\u034f",
  "\u061c",
  "\u115f",
  "\u17b4",
  "\u180b",
  "\u180e",
  "\u180f",
  "\u1820",
  "\u200b",
  "\u200c",
  "\u200d",
  "\u200e",
  "\u202e",
  "\u2060",
  "\u2065",
  "\u2066",
  "\u3164",
  "\ufe0f",
  "\ufe0e",
  "\ufe00",
  "\ufeff",
  "\uffa0",
  "\ufff0",
  "\ufff8",
  "\ufff9",
  "\u{1bca0}",
  "\u{1d173}",
  "\u{e0001}",
  "\u{e0041}",
  "\u{e007f}",
  "\u{e0080}",
  "\u{e0100}",
  "\u{e0fff}",
  "\u2764",
  "\u{1F600}",
  "\u{1F3F4}",
  "\u845b",
  "1",
  "#",
  "a",
  "b",
  " ",
  "word",
  WALES,
  "\ud800",
  "\udc00",
  AWS_KEY,
  GITHUB_TOKEN,
  "password=",
  "Hunter2Secret99x",
];
const hostile = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 4 }), fc.string({ unit: "binary", maxLength: 3 })), { maxLength: 40 })
  .map((parts) => parts.join(""));

const STANDALONE = new RegExp(`(?<![A-Za-z0-9_])(?:${AWS_KEY}|${GITHUB_TOKEN})(?![A-Za-z0-9_])`);
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** Default_Ignorable_Code_Point but the exceptions hidden.ts keeps in place (joiners, one selector, flag tags, bidi marks, a leading BOM). */
const INVISIBLE =
  /[\u00AD\u034F\u115F\u1160\u17B4\u17B5\u180E\u200B\u202A-\u202E\u2060-\u206F\u3164\uFFA0\uFFF0-\uFFF8\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0000}\u{E0002}-\u{E001F}\u{E0080}-\u{E00FF}\u{E01F0}-\u{E0FFF}]|(?!^)\uFEFF/u;
/** Tag characters only in one of the three subdivision flags. */
const withoutFlags = (text: string) =>
  text.replace(/\u{1F3F4}(?:\u{E0067}\u{E0062}(?:\u{E0065}\u{E006E}\u{E0067}|\u{E0073}\u{E0063}\u{E0074}|\u{E0077}\u{E006C}\u{E0073}))\u{E007F}/gu, "");
const TAG = /[\u{E0000}-\u{E007F}]/u;
/** Two selectors in a row (a byte smuggled per selector). */
const SELECTOR_RUN = /[\uFE00-\uFE0F\u{E0100}-\u{E01EF}\u180B-\u180D\u180F]{2}/u;

test("the gate lets out no control but tab, line feed and carriage return, no invisible character outside the exceptions, no credential; gating twice is gating once", () => {
  fc.assert(
    fc.property(hostile, (text) => {
      const once = gateText(text).text;
      assert.not.match(once, CONTROL, JSON.stringify(once));
      assert.not.match(once, INVISIBLE, JSON.stringify(once));
      assert.not.match(withoutFlags(once), TAG, JSON.stringify(once));
      assert.not.match(once, SELECTOR_RUN, JSON.stringify(once));
      // A credential standing alone (the patterns' own word bounds: AKIA… with a 17th character is no AWS key).
      assert.not.match(once, STANDALONE, JSON.stringify(once));
      assert.is(gateText(once).text, once, JSON.stringify(text));
    }),
    { numRuns: 3000 },
  );
});

test("a gated name is one line: no line break, no control, idempotent", () => {
  fc.assert(
    fc.property(hostile, (name) => {
      const once = gateName(name);
      assert.not.match(once, /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/, JSON.stringify(once));
      assert.not.match(once, INVISIBLE, JSON.stringify(once));
      assert.is(gateName(once), once, JSON.stringify(name));
    }),
    { numRuns: 2000 },
  );
});

test("the terminal escaper lets out no control a terminal obeys (but ctxinject's colours), no bidi control, no lone surrogate; escaping twice is escaping once", () => {
  const OWN = /\u001b\[(?:1|2|22|3[1236]|39)m/g;
  fc.assert(
    fc.property(hostile, (text) => {
      const once = escapeTerminal(text);
      const bare = once.replace(OWN, "").replace(/\r\n/g, "\n");
      assert.not.match(bare, /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/, JSON.stringify(once));
      assert.not.match(once, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/, JSON.stringify(once));
      assert.is(escapeTerminal(once), once, JSON.stringify(text));
      // What a repository wrote reaches a terminal gated, then escaped: not one ESC, not even a colour.
      assert.not.match(escapeTerminal(gateText(text).text), /\u001b/);
    }),
    { numRuns: 3000 },
  );
});

test.run();
