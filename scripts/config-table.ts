/**
 * The config's docs written from its table (src/core/config-table.ts) and the hosts' groups (src/hosts HOST_CONFIG): docs/config.md's table and README.md's
 * config section, each between its marker comments. Run `npx tsx scripts/config-table.ts` after changing the table;
 * test/unit/config-table.test.ts fails while a file differs from what this would write.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderConfigSummary, renderConfigTable, withGenerated } from "../src/core/config-docs.js";
import { HOST_CONFIG } from "../src/hosts/index.js";

const ROOT = join(fileURLToPath(import.meta.url), "..", "..");
const MARKER = "config-table";

/** Each file as it is and as the table says it should be (null: its markers are missing). */
export function configDocs(root = ROOT): Array<{ file: string; current: string; expected: string | null }> {
  return [
    { path: "docs/config.md", body: renderConfigTable(HOST_CONFIG) },
    { path: "README.md", body: renderConfigSummary(HOST_CONFIG) },
  ].map(({ path, body }) => {
    const file = join(root, path);
    const current = readFileSync(file, "utf8");
    return { file, current, expected: withGenerated(current, MARKER, body) };
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const { file, current, expected } of configDocs()) {
    if (expected === null) throw new Error(`${file}: no <!-- ${MARKER}:start --> / <!-- ${MARKER}:end --> markers`);
    if (expected !== current) writeFileSync(file, expected);
    process.stderr.write(`${expected === current ? "unchanged" : "wrote"} ${file}\n`);
  }
}
