import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { REPO } from "../helpers/cli.js";

test("library users import the collector and the pipeline from the package name", () => {
  const script = `
    import { ContextCollector, selectContext, defaultConfig, render, approxTokens } from "ctxinject";
    const c = new ContextCollector();
    c.register("s", { id: "a", source: "custom", content: "hello", priority: "high" });
    const sel = selectContext({ files: [{ path: "AGENTS.md", text: "root" }], targets: [], config: defaultConfig() });
    const md = render("markdown", { root: "/r", targets: [], tokenizer: "approx", maxTokens: null, entries: sel.entries, omitted: [], provenance: false, all: false }, approxTokens);
    console.log(JSON.stringify([c.consume("s").merged, md]));
  `;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: REPO, encoding: "utf8" });
  assert.is(result.status, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout), ["hello", "root\n"]);
});

test.run();
