import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
// @ts-expect-error: a plain .mjs script of the build, without types
import { keptOut, startUpGuard } from "../../scripts/start-up-guard.mjs";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

/** Bundles `files` (under src/) as scripts/bundle.mjs does; the error text, or null when it builds. */
async function bundle(files: Record<string, string>, plugins: unknown[] = []): Promise<string | null> {
  const dir = folder("guard");
  mkdirSync(join(dir, "src"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, "src", name), text);
  try {
    await build({
      entryPoints: [join(dir, "src/main.ts")],
      bundle: true,
      format: "cjs",
      platform: "node",
      target: "node20",
      write: false,
      logLevel: "silent",
      plugins: [...(plugins as never[]), startUpGuard],
    });
    return null;
  } catch (error) {
    return (error as { errors: Array<{ text: string }> }).errors.map((e) => e.text).join("\n");
  }
}

test("the bundle refuses import() of a computed name, naming the file and line and what to use instead", async () => {
  const error = await bundle({
    "main.ts": 'export async function load(name: string) {\n  const text = "import(not this)";\n  return await import(name);\n}\n',
  });
  assert.ok(error !== null, "the bundle was built");
  assert.match(error, /import\(\) at .*src\/main\.ts:3/);
  assert.match(error, "lazyRequire");
});

test("a module kept out of a bundle is refused there when imported statically, saying where it belongs", async () => {
  const files = { "main.ts": 'import { report } from "./report.js";\nexport const run = () => report();\n', "report.ts": "export const report = () => 1;\n" };
  const guard = keptOut(/\/src\/report\.ts$/, "import it through src/occasional.ts");
  const error = await bundle(files, [guard]);
  assert.ok(error !== null, "the bundle was built");
  assert.match(error, /src\/report\.ts would be in/);
  assert.match(error, "import it through src/occasional.ts");
  assert.is(await bundle({ "main.ts": "export const run = () => 1;\n", "report.ts": files["report.ts"] }, [guard]), null, "a bundle without it builds");
});

test("the bundle refuses a character outside ASCII, saying which and how to write it", async () => {
  const error = await bundle({ "main.ts": "export const stops = (line: string) => line.split(/[.!?\\u3002]/);\nexport const sentenceEnd = /[.!?。]/;\n" });
  assert.ok(error !== null, "the bundle was built");
  assert.match(error, '"。"');
  assert.match(error, "\\u3002");
  assert.match(error, "two-byte");
  assert.is(await bundle({ "main.ts": "export const stops = (line: string) => line.split(/[.!?\\u3002]/);\n" }), null);
});

test("the bundle refuses import() of a named package", async () => {
  const error = await bundle({ "main.ts": 'export const load = () => import("./other.js");\n', "other.ts": "export const x = 1;\n" });
  assert.match(error ?? "", /import\(.*src\/main\.ts/);
});

test("the bundle refuses a static import of a module that loads streams at start, and says how to load it", async () => {
  const error = await bundle({ "main.ts": 'import { readFile } from "node:fs/promises";\nexport const read = (p: string) => readFile(p);\n' });
  assert.match(error ?? "", "node:fs/promises is imported statically");
  assert.match(error ?? "", "lazyRequire");
});

test("types that name a module, comments and strings are not loads: the bundle builds", async () => {
  const error = await bundle({
    "main.ts":
      '// import("x") in a comment\nexport const tty = null as unknown as typeof import("node:tty");\nexport const text = `import(${"y"})`;\nimport { readFileSync } from "node:fs";\nexport const read = readFileSync;\n',
  });
  assert.is(error, null);
});

test.run();
