import { test } from "uvu";
import * as assert from "uvu/assert";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../helpers/cli.js";

// AGENTS.md's Layout is how a newcomer (and an agent) finds a module: a folder or module left out of it is code
// nobody is told about. This fails on purpose until the Layout names each one; it skips nothing.

/** The Layout's indented block, cut into its top entries (4 spaces in: `src/io/`, `src/core/`…), each with its lines. */
function layoutEntries(): Map<string, string> {
  const text = readFileSync(join(REPO, "AGENTS.md"), "utf8");
  const start = text.indexOf("\n## Layout");
  assert.ok(start >= 0, "AGENTS.md has a ## Layout section");
  const end = text.indexOf("\n## ", start + 1);
  const lines = text.slice(start, end < 0 ? undefined : end).split("\n");
  const entries = new Map<string, string>();
  let current: string | undefined;
  for (const line of lines) {
    const top = /^ {4}(\S+)/.exec(line);
    if (top) entries.set((current = top[1]!), "");
    if (current !== undefined && /^ {4}/.test(line)) entries.set(current, `${entries.get(current)}${line}\n`);
  }
  return entries;
}

/** Whether `name` stands in `text` as a word of its own (`name`, `name.ts` or `name/`), not as part of a longer name. */
const names = (text: string, name: string) => new RegExp(`(^|[^\\w.-])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\.ts|/)?(?![\\w-])`, "m").test(text);

const entries = layoutEntries();
const block = (top: string) => entries.get(top) ?? "";
const tsFiles = (dir: string) =>
  readdirSync(join(REPO, dir), { withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith(".ts"))
    .map((d) => d.name.slice(0, -3));
const folders = (dir: string): string[] =>
  readdirSync(join(REPO, dir), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => [`${dir}/${d.name}`, ...folders(`${dir}/${d.name}`)]);

test("AGENTS.md's Layout has an entry for each folder directly in src/", () => {
  const missing = folders("src")
    .filter((dir) => dir.split("/").length === 2)
    .filter((dir) => !entries.has(`${dir}/`));
  assert.equal(missing, [], `missing from AGENTS.md's Layout: ${missing.join(", ")}`);
});

test("AGENTS.md's Layout names every deeper folder of src/ in its top folder's entry", () => {
  const missing = folders("src")
    .filter((dir) => dir.split("/").length > 2)
    .filter((dir) => {
      const [, top, ...rest] = dir.split("/");
      return !names(block(`src/${top}/`), rest.join("/"));
    });
  assert.equal(missing, [], `missing from AGENTS.md's Layout: ${missing.join(", ")}`);
});

test("AGENTS.md's Layout names every module directly in src/, src/cli, src/io, src/integrations and src/core", () => {
  const missing: string[] = [];
  for (const file of tsFiles("src")) if (!entries.has(`src/${file}.ts`)) missing.push(`src/${file}.ts`);
  for (const top of ["cli", "io", "integrations", "core"]) {
    for (const file of tsFiles(`src/${top}`)) if (!names(block(`src/${top}/`), file)) missing.push(`src/${top}/${file}.ts`);
  }
  assert.equal(missing, [], `missing from AGENTS.md's Layout: ${missing.join(", ")}`);
});

test.run();
