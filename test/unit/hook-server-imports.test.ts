import { test } from "uvu";
import * as assert from "uvu/assert";
import { buildSync } from "esbuild";
import { join } from "node:path";
import { REPO } from "../helpers/cli.js";

/** The source files a module brings in when bundled (type-only imports leave nothing), repository-relative. */
function bundledSources(entry: string): string[] {
  const result = buildSync({
    entryPoints: [join(REPO, entry)],
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    packages: "external",
    logLevel: "silent",
  });
  return Object.keys(result.metafile!.inputs).sort();
}

test("the hook server is transport only: it brings in no core module, so it holds nothing a run works out", () => {
  const inputs = bundledSources("src/cli/hook-transport/server.ts");
  assert.ok(inputs.includes("src/cli/hook-transport/server.ts"), inputs.join(", "));
  assert.equal(
    inputs.filter((path) => path.startsWith("src/core/")),
    [],
  );
});

test.run();
