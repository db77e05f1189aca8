import { test } from "uvu";
import * as assert from "uvu/assert";
import fc from "fast-check";
import { bytesReader, indexedPaths, type IndexSpec } from "../../src/core/git-index.js";

/** A version 2 index holding `paths` (regular files), as git writes it: fixed part, path, 1 to 8 NULs, the hash at the end. */
function indexOf(paths: string[]): Uint8Array {
  const encoder = new TextEncoder();
  const entries = [...paths].sort().map((path) => {
    const name = encoder.encode(path);
    const entry = new Uint8Array((62 + name.length + 8) & ~7);
    const view = new DataView(entry.buffer);
    view.setUint32(24, 0o100644);
    view.setUint16(60, Math.min(name.length, 0xfff));
    entry.set(name, 62);
    return entry;
  });
  const header = new Uint8Array(12);
  const view = new DataView(header.buffer);
  view.setUint32(0, 0x44495243);
  view.setUint32(4, 2);
  view.setUint32(8, entries.length);
  const parts = [header, ...entries, new Uint8Array(20)];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** What the index reader is to find: the path is a name (at a segment boundary) or lies under a folder. */
function expected(paths: string[], spec: IndexSpec): string[] {
  const named = (path: string) => spec.names.some((n) => path === n || path.endsWith(`/${n}`));
  const inFolder = (path: string) => spec.folders.some((f) => (path.startsWith(`${f}/`) || path.includes(`/${f}/`)) && !path.endsWith(`${f}/`));
  return [...new Set(paths)].sort().filter((p) => named(p) || inFolder(p));
}

const read = (paths: string[], spec: IndexSpec) => indexedPaths(bytesReader(indexOf(paths)), spec);

const SPEC: IndexSpec = {
  names: ["AGENTS.md", ".github/copilot-instructions.md", "x", "package.json", ".clinerules"],
  folders: [".cursor/rules", ".clinerules", "docs/kord/rules", "r/s"],
  prefix: "",
};

test("names are found at a segment boundary only, whatever their length (one byte, with a slash in them)", () => {
  const paths = [
    "AGENTS.md",
    "a/AGENTS.md",
    "a/xAGENTS.md",
    "x",
    "a/x",
    "a/bx",
    "xx",
    ".github/copilot-instructions.md",
    "a/.github/copilot-instructions.md",
    "b.github/copilot-instructions.md",
    "src/main.ts",
    "lib/package.json",
    "lib/mypackage.json",
  ];
  assert.equal(read(paths, SPEC), [
    ".github/copilot-instructions.md",
    "AGENTS.md",
    "a/.github/copilot-instructions.md",
    "a/AGENTS.md",
    "a/x",
    "lib/package.json",
    "x",
  ]);
});

test("a folder is found where a segment starts and a file lies under it, also right after a short segment", () => {
  const paths = [
    ".cursor/rules/a.mdc",
    "p/.cursor/rules/b.mdc",
    "p/q/.cursor/rules/deep/c.md",
    "p/x.cursor/rules/d.mdc",
    "p/.cursor/rulesx/e.mdc",
    ".clinerules/one.md",
    "a/.clinerules",
    "r/s/t",
    "a/r/s/u",
    "ar/s/v",
    "docs/kord/rules/w.md",
    "mydocs/kord/rules/w.md",
  ];
  assert.equal(read(paths, SPEC), [
    ".clinerules/one.md",
    ".cursor/rules/a.mdc",
    "a/.clinerules",
    "a/r/s/u",
    "docs/kord/rules/w.md",
    "p/.cursor/rules/b.mdc",
    "p/q/.cursor/rules/deep/c.md",
    "r/s/t",
  ]);
});

test("the index reader finds exactly the paths a plain reading of names and folders finds", () => {
  const segment = fc.constantFrom(
    "a",
    "r",
    "s",
    "x",
    ".cursor",
    "rules",
    ".clinerules",
    "docs",
    "kord",
    "AGENTS.md",
    "package.json",
    ".github",
    "copilot-instructions.md",
    "src",
    "main.ts",
    "rs",
    "ules",
  );
  const path = fc.array(segment, { minLength: 1, maxLength: 6 }).map((parts) => parts.join("/"));
  fc.assert(
    fc.property(fc.array(path, { maxLength: 40 }), (paths) => {
      assert.equal(read(paths, SPEC), expected(paths, SPEC));
    }),
    { numRuns: 300 },
  );
});

test.run();
