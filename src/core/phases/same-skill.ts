import type { LoadedContext } from "../agents/profile.js";
import type { Candidate } from "../types.js";
import { heldIn } from "./dedup.js";
import type { Drafted } from "./drafted.js";
import type { Exclude } from "./gate.js";

const SKILLS = "skills";

/**
 * One skill per SKILL.md text: the same skill kept in two agents' folders (`.claude/skills/x` and `.github/skills/x`)
 * is one entry and one index line, as the same rule text is. A skill's candidate says where its file is, so the
 * collector's same-content check cannot see the copies; their files' texts are compared here, before scoring, so
 * that copies neither take two places of the likely tier nor weigh twice in the scores. The copy kept is one the agent
 * lists itself (so its hook sends none of them), else the first in path order; the others name it.
 */
export function oneSkillPerText(
  drafts: readonly Drafted[],
  textOf: (path: string) => string | undefined,
  exclude?: { exclude: Exclude; loaded: LoadedContext },
): void {
  const byText = new Map<string, Candidate[]>();
  for (const { candidate } of drafts) {
    if (candidate.source !== SKILLS || candidate.path === null || candidate.content === "") continue;
    if (candidate.status === "disabled" || candidate.status === "invalid" || candidate.status === "unmatched") continue;
    const text = textOf(candidate.path)?.trim();
    if (text === undefined || text === "") continue;
    const copies = byText.get(text);
    if (copies) copies.push(candidate);
    else byText.set(text, [candidate]);
  }
  for (const copies of byText.values()) {
    if (copies.length < 2) continue;
    const kept = (exclude && copies.find((c) => exclude.exclude(c, exclude.loaded) !== null)) ?? copies[0]!;
    for (const copy of copies) {
      if (copy === kept) continue;
      heldIn(copy, `same SKILL.md text as ${kept.path}: one skill, offered once`, kept);
    }
  }
}
