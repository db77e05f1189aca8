/** Where an instruction file sits decides its source, its format and the folder its globs are anchored at. */

/** In registration order within one folder: rules folders first, then the single-file rules. */
export const RULE_FORMATS = ["cursor", "claude", "kord", "copilot-instructions", "custom-dir", "copilot", "cursorrules"] as const;
export type RuleFormat = (typeof RULE_FORMATS)[number];

export type Location =
  | { source: "rules-injector"; format: RuleFormat; anchor: string }
  | { source: "directory-agents"; dir: string; name: string; override: boolean }
  | { source: "directory-readme"; dir: string };

export interface LocateOptions {
  /** Agent file names, e.g. ["AGENTS.md", "CLAUDE.md"]. */
  agentFiles: string[];
  /** Extra rules folders from the config, relative to any directory (like `.cursor/rules`). */
  ruleDirs: string[];
}

export interface RuleDir {
  dir: string;
  format: RuleFormat;
  accepts: (name: string) => boolean;
}

const isMdOrMdc = (name: string) => name.endsWith(".md") || name.endsWith(".mdc");

export const BUILTIN_RULE_DIRS: readonly RuleDir[] = [
  { dir: ".cursor/rules", format: "cursor", accepts: isMdOrMdc },
  { dir: ".claude/rules", format: "claude", accepts: (n) => n.endsWith(".md") },
  { dir: "docs/kord/rules", format: "kord", accepts: isMdOrMdc },
  { dir: ".github/instructions", format: "copilot-instructions", accepts: (n) => n.endsWith(".instructions.md") },
];

/** Single files that are rules of their own, at any level. */
export const RULE_FILES: ReadonlyArray<{ file: string; format: RuleFormat }> = [
  { file: ".github/copilot-instructions.md", format: "copilot" },
  { file: ".cursorrules", format: "cursorrules" },
];

export const README = "README.md";

export function ruleDirs(options: LocateOptions): RuleDir[] {
  return [
    ...BUILTIN_RULE_DIRS,
    ...options.ruleDirs.map((dir) => ({ dir: trimSlashes(dir), format: "custom-dir" as const, accepts: isMdOrMdc })),
  ];
}

/** The override file that replaces an agents file in its folder (Codex's AGENTS.override.md). */
export function overrideName(name: string): string {
  return name.replace(/(\.md)?$/i, ".override.md");
}

export function trimSlashes(path: string): string {
  return path.replace(/\\/g, "/").replace(/^\.?\/+/, "").replace(/\/+$/, "");
}

export function dirOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

export function joinPath(dir: string, name: string): string {
  return dir === "" ? name : `${dir}/${name}`;
}

/** How many folders deep a root-relative folder is; the root ("") is 0. */
export const depthOf = (dir: string): number => (dir === "" ? 0 : dir.split("/").length);

/** Every folder from the root ("") down to dir, root first. */
export function ancestorsOf(dir: string): string[] {
  const out = [""];
  if (dir === "") return out;
  const parts = dir.split("/");
  for (let i = 1; i <= parts.length; i++) out.push(parts.slice(0, i).join("/"));
  return out;
}

/** True when dir is `ancestor` or lies below it. */
export function isWithin(dir: string, ancestor: string): boolean {
  return ancestor === "" || dir === ancestor || dir.startsWith(`${ancestor}/`);
}

/** Classifies a root-relative path, or returns null when it is not an instruction file. */
export function locate(path: string, options: LocateOptions): Location | null {
  for (const rd of ruleDirs(options)) {
    const anchor = anchorOf(path, `${rd.dir}/`);
    if (anchor !== null && rd.accepts(baseName(path))) return { source: "rules-injector", format: rd.format, anchor };
  }
  for (const rf of RULE_FILES) {
    if (path === rf.file || path.endsWith(`/${rf.file}`)) {
      const anchor = path === rf.file ? "" : path.slice(0, path.length - rf.file.length - 1);
      return { source: "rules-injector", format: rf.format, anchor };
    }
  }
  const name = baseName(path);
  const dir = dirOf(path);
  for (const agentFile of options.agentFiles) {
    if (name === agentFile) return { source: "directory-agents", dir, name: agentFile, override: false };
    if (name === overrideName(agentFile)) return { source: "directory-agents", dir, name: agentFile, override: true };
  }
  if (name === README) return { source: "directory-readme", dir };
  return null;
}

/** The folder that holds `marker` (e.g. ".cursor/rules/") in path, or null. The first occurrence wins. */
function anchorOf(path: string, marker: string): string | null {
  if (path.startsWith(marker)) return "";
  const at = path.indexOf(`/${marker}`);
  return at === -1 ? null : path.slice(0, at);
}
