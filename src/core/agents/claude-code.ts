/**
 * Claude Code's own loading, as observed with the real CLI 2.1.330 against a recording API (test/hosts):
 * - memory files CLAUDE.md, .claude/CLAUDE.md and CLAUDE.local.md: those from the working folder up at start,
 *   nested ones when a file below them is read; their `@imports` expanded;
 * - AGENTS.md instead, when the project's top folder has none of those three files: the top one at start, nested
 *   ones on read (with imports), each only in a folder without a CLAUDE.md;
 * - `.claude/rules/*.md`: without `paths` at start (also when they carry Cursor's `globs`), with `paths` when a
 *   matching file is read.
 * - skills: `.claude/skills/<name>/SKILL.md` in the working folder and each folder above it, each skill's name and
 *   description in the first request (its body only when the model uses the skill); the documentation adds nested
 *   `.claude/skills` below the working folder once Claude Code works on files there.
 * The documentation (code.claude.com, memory and skills) describes the same files; the AGENTS.md fallback and its
 * all-or-nothing switch on the top folder were established by running the CLI.
 */
import { baseName, dirOf, hasSegments, joinPath } from "../rel-path.js";
import { nativeSkill, type NativeSkills } from "./native-skills.js";
import type { AgentProfile, LoadedContext } from "./profile.js";

const SKILLS: NativeSkills = { label: "Claude Code", folders: [".claude/skills"], scope: "chain", onRead: true };

const MEMORY = ["CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"];

function memoryIn(folder: string, present: ReadonlySet<string>): boolean {
  return MEMORY.some((name) => present.has(joinPath(folder, name)));
}

export const claudeCode: AgentProfile = {
  name: "claude-code",
  version: "2.1.330",
  basis: "observed with the real CLI against a recording API (test/hosts/claude.test.ts); code.claude.com memory and hooks docs",
  maxChars: 10_000,
  expandsImports: true,
  loadsItself(candidate, context: LoadedContext) {
    const { present } = context;
    const path = candidate.path;
    if (path === null) return null;
    if (candidate.source === "skills") return nativeSkill(SKILLS, candidate, context);
    if (candidate.source === "directory-agents") {
      if (path === "CLAUDE.md" || path.endsWith("/CLAUDE.md") || baseName(path) === "CLAUDE.local.md") return "Claude Code loads its memory files itself";
      if (baseName(path) === "AGENTS.md") {
        const folder = dirOf(path);
        if (!memoryIn("", present) && !present.has(joinPath(folder, "CLAUDE.md"))) return "Claude Code loads AGENTS.md itself where there is no CLAUDE.md";
      }
      return null;
    }
    if (candidate.source === "rules-injector" && hasSegments(path, ".claude/rules")) {
      return "Claude Code loads .claude/rules itself (without paths at start, with paths when a matching file is read)";
    }
    return null;
  },
};
