import { test } from "uvu";
import * as assert from "uvu/assert";
import { stemmer } from "stemmer";
import { compose } from "../../src/core/compose.js";
import { LIKELY_TITLE } from "../../src/core/render/tiers.js";
import { approxTokens } from "../../src/core/tokens.js";
import type { Format } from "../../src/core/types.js";
import { select } from "../helpers/tree.js";

// One rule injected (the prompt's own words), one likely (related words only), the rest plain index.
const rules = {
  ".cursor/rules/db.mdc": "---\ndescription: Writing and applying database migrations safely\n---\nNullable first.",
  ".windsurf/rules/realtime.md": "---\ntrigger: model_decision\ndescription: Realtime updates over WebSockets and reconnects\n---\nBack off.",
  ".kiro/steering/email.md": "---\ninclusion: auto\nname: email\ndescription: Transactional email templates and the mail queue\n---\nUse the queue.",
  ".cursor/rules/styling.mdc": "---\ndescription: CSS modules, design tokens and dark mode\n---\nNo hex values.",
};
const prompt = "the database migration breaks live presence and broadcast";
const build = (format: Format, maxTokens: number | null = null) =>
  compose(select(rules, { prompt, stem: stemmer }), { format, root: "", tokenizer: "approx", maxTokens, countTokens: approxTokens, provenance: false, all: false });

test("the likely-relevant tier comes first in the index, with its path and one line of why, in every format", () => {
  const md = build("markdown").output;
  const likelyAt = md.indexOf(`## ${LIKELY_TITLE}`);
  const indexAt = md.indexOf("## Not included here");
  assert.ok(likelyAt > 0 && indexAt > likelyAt, md);
  assert.match(md.slice(likelyAt, indexAt), /- `\.windsurf\/rules\/realtime\.md` \(\d+ tokens\): Realtime updates over WebSockets and reconnects \(why: the prompt speaks of /);
  assert.not.match(md.slice(likelyAt, indexAt), /email|styling/);
  assert.ok(md.includes("Nullable first."), "the sure one is injected");
  const compact = build("compact").output;
  assert.ok(compact.indexOf(`## ${LIKELY_TITLE}\n.windsurf/rules/realtime.md`) >= 0, compact);
  assert.match(build("xml").output, /<item [^>]*id="\.windsurf\/rules\/realtime\.md"[^>]* tier="likely" read="Likely relevant: read these before you start" why="the prompt speaks of /);
  const json = JSON.parse(build("json").output) as { omitted: Array<{ id: string; tier?: string; why?: string }> };
  assert.equal(json.omitted.map((o) => [o.id, o.tier ?? "index"]), [
    [".windsurf/rules/realtime.md", "likely"],
    [".cursor/rules/styling.mdc", "index"],
    [".kiro/steering/email.md", "index"],
  ]);
});

test("a budget too small for the whole index cuts plain index lines before the likely tier's", () => {
  const whole = build("markdown").output;
  // Room for the entry and a line or two of index, not all of it.
  for (let max = approxTokens(whole) - 1; max > 20; max -= 4) {
    const out = build("markdown", max).output;
    const plainNamed = ["styling.mdc", "email.md"].filter((n) => out.includes(n)).length;
    if (plainNamed > 0) assert.ok(out.includes("realtime.md"), `plain lines kept while the likely one went (max ${max}):\n${out}`);
  }
});

test.run();
