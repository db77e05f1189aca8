import { test } from "uvu";
import * as assert from "uvu/assert";
import { hasBody, readmeForAgents } from "../../src/core/sources/readme-text.js";

test("HTML blocks, comments, badge lines and inline images go; code fences and code spans stay as written", () => {
  const text =
    "<div>\n<img src=x>\n</div>\n\n[![b](https://s.invalid/b.svg)](https://x.invalid)\n\nUse `![a](b)` here ![pic](p.png) ok.\n\n```\n<div>code</div>\n```\n<!-- gone -->\nEnd.";
  assert.is(readmeForAgents(text), "Use `![a](b)` here ok.\n\n```\n<div>code</div>\n```\nEnd.");
});

test("inline HTML elements in prose go with their text kept; a generic type and code spans are not HTML", () => {
  const text = 'Press <kbd>Ctrl</kbd> or [<kbd>**Jobs**</kbd>](https://x.invalid) <a href="y">here</a>.<br>\nA Map<string, T> and `<kbd>` stay.';
  assert.is(readmeForAgents(text), "Press Ctrl or [**Jobs**](https://x.invalid) here.\nA Map<string, T> and `<kbd>` stay.");
});

test("only headings, or nothing, is no body", () => {
  assert.not.ok(hasBody("## API\n"));
  assert.not.ok(hasBody(""));
  assert.not.ok(hasBody("Title\n=====\n"));
  assert.ok(hasBody("## API\n\nServes /v1."));
});

test.run();
