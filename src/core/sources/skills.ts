/**
 * skills: `SKILL.md` under `.claude/skills/<name>/`, `.agents/skills/<name>/`, Copilot's `.github/skills/<name>/`,
 * Kiro's `.kiro/skills/<name>/`, the other agents' own skills folders (`.gemini/skills`…) and configured folders. A skill's
 * name and description make an agent-requested candidate scored by relevance; what is injected is that summary
 * and where the instructions are, so the agent reads the body when the task calls for it.
 */
import { parseFrontmatter } from "../parse/frontmatter.js";
import { baseName, dirOf, trimSlashes } from "../rel-path.js";
import { decideRule, relevanceFields } from "./rules.js";
import { makeCandidate, modulePriority, type SourceModule } from "./source.js";
import { gateName } from "../text-gate.js";

const SKILL_FILE = /^[^/]+\/SKILL\.md$/;
/** Gemini CLI's, Codex's, Droid's, opencode's and Kilo's own skills folders. */
const AGENT_SKILL_FOLDERS = [".gemini/skills", ".codex/skills", ".factory/skills", ".opencode/skills", ".kilo/skills", ".kilocode/skills"];

export const skillFiles: SourceModule = {
  name: "skills",
  source: "skills",
  files: (options) => ({
    // Every folder an agent lists skills from by itself (core/agents' NativeSkills): a skill kept for one agent is
    // offered to the others, and the agent that reads the folder is not sent it again.
    folders: [".claude/skills", ".agents/skills", ".github/skills", ".kiro/skills", ...AGENT_SKILL_FOLDERS, ...(options.skillDirs ?? []).map(trimSlashes)],
    names: [],
    accepts: (inFolder) => SKILL_FILE.test(inFolder),
  }),
  draft: (ctx, located) =>
    located.map(({ file, anchor }) => {
      const doc = parseFrontmatter(file.text, file.path, ctx.memo, ctx.gate);
      doc.warnings.forEach(ctx.warn);
      const name = typeof doc.data.name === "string" && doc.data.name.trim() !== "" ? doc.data.name.trim() : gateName(baseName(dirOf(file.path)));
      const description = typeof doc.data.description === "string" && doc.data.description.trim() !== "" ? doc.data.description.trim() : null;
      const empty = file.text.trim() === "";
      if (description === null && !empty) ctx.warn({ file: file.path, message: 'a skill needs a "description": without one no agent can tell when to use it' });
      // An empty SKILL.md stays empty, so the gate reports it like any empty file.
      const content = empty
        ? ""
        : `Skill "${name}"${description ? `: ${description}` : ""}\nIts instructions are in ${gateName(file.path)}: read that file before doing this kind of task.`;
      const kind = description === null ? "manual" : "agent-requested";
      const candidate = makeCandidate({
        source: skillFiles.source,
        id: file.path,
        priority: modulePriority(ctx.config, skillFiles),
        kind,
        path: file.path,
        content,
        description,
        countTokens: ctx.countTokens,
      });
      decideRule(candidate, { anchor, name, kind, path: file.path, alwaysReason: null }, ctx);
      return {
        candidate,
        key: { folder: anchor, rank: 0, path: file.path },
        relevance: { id: file.path, name, description: description ?? "", body: doc.body, ...relevanceFields(doc.data), skill: true },
      };
    }),
};
