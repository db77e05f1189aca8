/** directory-agents: AGENTS.md and the other per-folder agent files, from the root down to each target. */
import { parseFrontmatter } from "../parse/frontmatter.js";
import { expandImports } from "../parse/imports.js";
import { dirOf, isWithin, joinPath, withoutSuffix } from "../rel-path.js";
import type { Candidate } from "../types.js";
import { expandsImports, makeCandidate, modulePriority, setStatus, type Draft, type DraftContext, type Located, type SourceModule } from "./source.js";

/** The override file that replaces an agents file in its folder (Codex's AGENTS.override.md). */
export function overrideName(name: string): string {
  return `${withoutSuffix(name, [".md"])}.override.md`;
}

/** The personal, usually git-ignored, file read after an agents file in its folder (CLAUDE.local.md). */
export function localName(name: string): string {
  return `${withoutSuffix(name, [".md"])}.local.md`;
}

/** The configured agents files (`agents.files`, AGENTS.md by default), each with its override and local file. */
export const agentsFiles: SourceModule = {
  name: "agents",
  source: "directory-agents",
  files: (options) => ({ folders: [], names: options.agentFiles.flatMap((name) => [name, overrideName(name), localName(name)]) }),
  draft: (ctx, located) =>
    located.map((l) => {
      const names = ctx.config.agents.files;
      const base = names.find((n) => n === l.matched || overrideName(n) === l.matched || localName(n) === l.matched)!;
      const variant = l.matched === base ? 0 : l.matched === overrideName(base) ? 1 : 2;
      const draft = folderFileDraft(agentsFiles, ctx, l, names.indexOf(base) * 3 + variant);
      const { candidate } = draft;
      const replacement = joinPath(l.anchor, overrideName(base));
      if (variant === 0 && ctx.present.has(replacement)) setStatus(candidate, "overwritten", `replaced by ${replacement}`);
      else if (l.anchor === "" && ctx.config.agents.skipRoot) setStatus(candidate, "disabled", "agents.skipRoot is set: the agent loads the root file itself");
      else decideOnPath(candidate, l.anchor, ctx);
      return draft;
    }),
};

/**
 * An agent's own per-folder file (CLAUDE.md, GEMINI.md…): read from the root down to each target, like
 * AGENTS.md. `names` are in their order within one folder.
 */
export function agentFileModule(name: string, names: string[]): SourceModule {
  const module: SourceModule = {
    name,
    source: "directory-agents",
    files: () => ({ folders: [], names }),
    draft: (ctx, located) =>
      located.map((l) => {
        const draft = folderFileDraft(module, ctx, l, names.indexOf(l.matched));
        decideOnPath(draft.candidate, l.anchor, ctx);
        return draft;
      }),
  };
  return module;
}

/**
 * A file whose scope is its folder: one candidate, its body after any frontmatter, with `@imports` expanded for
 * agent files (a README's `@` is just text).
 */
export function folderFileDraft(module: SourceModule, ctx: DraftContext, { file, anchor }: Located, rank: number): Draft {
  const doc = parseFrontmatter(file.text, file.path, ctx.memo, ctx.gate);
  doc.warnings.forEach(ctx.warn);
  const body = doc.body.trim();
  const expanded = expandsImports(module)
    ? expandImports(body, file.path, ctx.files, (f) => parseFrontmatter(f.text, f.path, ctx.memo).body, ctx.warn)
    : { text: body, imports: [] };
  const candidate = makeCandidate({
    source: module.source,
    id: file.path,
    priority: modulePriority(ctx.config, module),
    kind: "directory",
    path: file.path,
    content: expanded.text.trim(),
    description: typeof doc.data.description === "string" ? doc.data.description : null,
    countTokens: ctx.countTokens,
  });
  if (expanded.imports.length > 0) {
    candidate.imports = expanded.imports;
    candidate.asWritten = { content: body, tokens: ctx.countTokens(body) };
  }
  return { candidate, key: { folder: anchor, rank, path: file.path } };
}

/** Included for the root, for --all, and when a target lies below the file's folder. */
export function decideOnPath(candidate: Candidate, dir: string, ctx: DraftContext): void {
  if (ctx.all) return setStatus(candidate, "included", "--all");
  if (dir === "") return setStatus(candidate, "included", "project root");
  const target = ctx.targets.find((t) => isWithin(dirOf(t), dir));
  if (target !== undefined) setStatus(candidate, "included", `on the path to ${target}`);
  else setStatus(candidate, "unmatched", `no target under ${dir}/`);
}
