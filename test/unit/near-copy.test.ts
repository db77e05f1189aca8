import { test } from "uvu";
import * as assert from "uvu/assert";
import { mayShareLines, significantLines } from "../../src/core/phases/near-copy.js";

const para = (topic: string, n: number) => Array.from({ length: n }, (_, i) => `Rule ${i + 1} about ${topic}: keep the change small.`).join("\n");

test("mayShareLines: a text sharing no significant line with another is left unflagged, one sharing a line is flagged", () => {
  const texts = [para("billing", 6), para("search", 6), `${para("auth", 5)}\nRule 3 about search: keep the change small.`];
  assert.equal(mayShareLines(texts), [false, true, true]);
});

test("mayShareLines: lines that read alike once trimmed and normalised (spaces, tabs, links, .mdc, CRLF) count as shared", () => {
  const base = para("deploys", 6);
  const variants = [
    `  ${base.replaceAll("\n", "  \r\n  ")}  `,
    base.replace("keep the change", "keep\t the   change"),
    `${base}\nSee [the guide](docs/guide.md) before you open a pull request.`,
    base.replace("small.", "small, see style.mdc."),
  ];
  const other = `${para("releases", 6)}\nSee [the guide](other/place.md) before you open a pull request.\nRule 1 about deploys: keep the change small, see style.md.`;
  for (const variant of variants) {
    const flags = mayShareLines([para("unrelated", 6), variant, other, base]);
    assert.equal(flags, [false, true, variant.includes("guide") || variant.includes(".mdc"), true], variant);
  }
});

test("mayShareLines: a text with fewer than three distinct significant lines is flagged (dedup searches longer texts for it whole)", () => {
  const two = "A first line long enough to count here.\nA second line long enough to count here.\nA first line long enough to count here.";
  assert.equal(mayShareLines([two, para("x", 3), "short"]), [true, false, true]);
});

test("mayShareLines flags every pair of texts whose significant lines meet (hashes may add pairs, never miss one)", () => {
  const pieces = [
    "Rule one of the set, long enough.",
    " Rule one of the set,  long enough. ",
    "Rule one\tof the set, long enough.",
    "Link [here](a.md) and more words to pass.",
    "Link [here](b.mdc) and more words to pass.",
    "Uses rules.mdc as the name of a file.",
    "Uses rules.md as the name of a file.",
    "\u00a0Rule one of the set, long enough.\u00a0",
    "Another line that nobody else holds ok.",
  ];
  const texts: string[] = [];
  for (let i = 0; i < pieces.length; i++)
    texts.push(
      [pieces[i], `Filler ${i} line one that is unique here.`, `Filler ${i} line two that is unique here.`, `Filler ${i} line three unique here too.`].join(
        "\n",
      ),
    );
  const flags = mayShareLines(texts);
  const sets = texts.map((t) => new Set(significantLines(t)));
  for (let i = 0; i < texts.length; i++) {
    const shares = sets.some((other, j) => j !== i && [...sets[i]!].some((line) => other.has(line)));
    if (shares) assert.ok(flags[i], `text ${i} shares a line but is not flagged`);
  }
  assert.ok(!flags[8], "a text sharing nothing is left out");
});

test.run();
