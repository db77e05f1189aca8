import { configLeaves, isGroup, tableEntries, type HostConfig } from "./config-table.js";

/**
 * What the config table says to people: init's commented template and the README's table. Both are rendered from
 * core/config-table.ts and the hosts' groups (`hosts`: src/hosts HOST_CONFIG), so that neither can fall behind them
 * (test/unit/config-table.test.ts holds README.md to it).
 */

/** A value in YAML's flow style: plain words bare, anything else quoted as JSON (which YAML reads). */
function yaml(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(yaml).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const parts = Object.entries(value).map(([k, v]) => `${k}: ${yaml(v)}`);
    return parts.length === 0 ? "{}" : `{ ${parts.join(", ")} }`;
  }
  return typeof value === "string" && !/^[A-Za-z][\w./-]*$/.test(value) ? JSON.stringify(value) : String(value);
}

/** The settings a repository's config may not set, as the template's header says them. */
function guardedList(): string {
  const items = configLeaves().flatMap(({ key, leaf }) => {
    const guarded = leaf.userOnly?.guarded;
    if (guarded === undefined) return [];
    return [guarded === "any folder" || guarded === "any value" ? key : guarded.startsWith("above") ? `a ${key} ${guarded}` : `${key}: ${guarded}`];
  });
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** `.ctxinjectrc.yaml` as `ctxinject init` writes it: every setting commented out at its default, with its docs. */
export function renderConfigTemplate(hosts: readonly HostConfig[] = []): string {
  const lines = [
    "# ctxinject configuration for this repository. Every key is optional; the values shown commented out are the defaults.",
    "# Where settings come from, later winning: defaults < your own config < this file < flags on the command line.",
    "# Your own config is $XDG_CONFIG_HOME/ctxinject/config.json or config.yaml (~/.config/ctxinject without",
    "# XDG_CONFIG_HOME; ~/Library/Application Support/ctxinject on macOS, %APPDATA%\\ctxinject on Windows).",
    ...comment(
      `A repository is untrusted: ${guardedList()} are taken from your own config only, and ignored here with a warning. ` +
        "`ctxinject explain` shows where each setting came from. This file is data: nothing in it runs (a .js/.mjs/.cjs " +
        "config runs only after `ctxinject trust`).",
    ),
  ];
  for (const [name, entry] of tableEntries(hosts)) {
    lines.push("");
    if (isGroup(entry)) {
      const members = Object.entries(entry.members);
      for (const [member, leaf] of members) lines.push(...comment(`${name}.${member}: ${leaf.doc}${flagNote(leaf.flag)}${userNote(leaf.userOnly?.guarded)}`));
      const shown = members.filter(([, leaf]) => (leaf.default ?? leaf.unset) !== undefined);
      lines.push(`# ${name}:${shown.length > 0 ? ` ${yaml(Object.fromEntries(shown.map(([member, leaf]) => [member, leaf.default ?? leaf.unset])))}` : ""}`);
      for (const [, leaf] of members) for (const example of leaf.example ?? []) lines.push(`#   ${example}`);
      continue;
    }
    lines.push(...comment(`${entry.doc}${flagNote(entry.flag)}${userNote(entry.userOnly?.guarded)}`));
    const value = entry.default ?? entry.unset;
    lines.push(value === undefined ? `# ${name}:` : `# ${name}: ${yaml(value)}`);
    for (const example of entry.example ?? []) lines.push(`#   ${example}`);
  }
  return `${lines.join("\n")}\n`;
}

/** A comment in lines of at most WIDTH characters, broken between words. */
const WIDTH = 118;
function comment(text: string): string[] {
  const lines: string[] = [];
  let line = "#";
  for (const word of text.split(" ")) {
    if (line !== "#" && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = "#";
    }
    line += ` ${word}`;
  }
  return [...lines, line];
}

const flagNote = (flag: string | undefined) => (flag === undefined ? "" : ` (${flag} on the command line)`);
const userNote = (guarded: string | undefined) => (guarded === undefined ? "" : ` (${guarded}: from your own config only)`);

/** A cell of a Markdown table: pipes escaped. */
const cell = (text: string) => text.replace(/\|/g, "\\|");

/** docs/config.md's table: one row per setting, with its type, default and who may set it. */
export function renderConfigTable(hosts: readonly HostConfig[] = []): string {
  const rows = ["| key | type | default | meaning |", "|---|---|---|---|"];
  for (const { key, leaf } of configLeaves(hosts)) {
    const value = leaf.default ?? leaf.unset;
    const shown = value === undefined ? "" : `\`${yaml(value)}\``;
    const who = [leaf.flag && `\`${leaf.flag}\``, leaf.userOnly && `*user* for ${leaf.userOnly.guarded}`].filter(Boolean).join("; ");
    const name = leaf.each === undefined ? key : `${key}.<${leaf.each}>`;
    rows.push(`| \`${name}\` | ${cell(leaf.kind.expected.replace(/^an? /, ""))} | ${cell(shown)} | ${cell(leaf.doc)}${who ? ` (${cell(who)})` : ""} |`);
  }
  return rows.join("\n");
}

/** README.md's config section: every key, and where the table is (the whole table would not fit its size). */
export function renderConfigSummary(hosts: readonly HostConfig[] = []): string {
  // Every host has the same group: named once as `<host>.…`, not once per host.
  const hostKeys = new Set(hosts.map((h) => h.key));
  const leaves = configLeaves(hosts);
  const keys = leaves
    .filter(({ key }) => !hostKeys.has(key.split(".")[0]!))
    .map(({ key, leaf }) => `\`${leaf.each === undefined ? key : `${key}.<${leaf.each}>`}\``);
  const members = [...new Set(leaves.filter(({ key }) => hostKeys.has(key.split(".")[0]!)).map(({ key }) => key.slice(key.indexOf(".") + 1)))];
  const perHost = members.map((m) => {
    const only = hosts.filter((h) => leaves.some(({ key }) => key === `${h.key}.${m}`));
    return only.length === hosts.length ? `\`<host>.${m}\`` : only.map((h) => `\`${h.key}.${m}\``).join(", ");
  });
  const hostList = hosts.length > 0 ? `; for each host (${hosts.map((h) => h.key).join(", ")}): ${perHost.join(", ")}` : "";
  return [
    "Every setting with its type, default, flag and meaning is in [docs/config.md](docs/config.md) (generated from",
    "`src/core/config-table.ts`; *user*: a repository's config cannot set that value). The keys:",
    ...wrap(`${keys.join(", ")}${hostList}.`),
  ].join("\n");
}

function wrap(text: string): string[] {
  return comment(text).map((line) => line.slice(2));
}

/**
 * `text` with what stands between `<!-- <name>:start -->` and `<!-- <name>:end -->` replaced by `body`, or null
 * when the markers are not there.
 */
export function withGenerated(text: string, name: string, body: string): string | null {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) return null;
  return `${text.slice(0, from + start.length)}\n${body}\n${text.slice(to)}`;
}
