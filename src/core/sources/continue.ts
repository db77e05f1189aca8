/** Continue: `.continue/rules/*.md` with `alwaysApply`, `globs`, `description` (and `regex`, see the README). */
import { isMarkdown } from "./locate.js";
import { only, ruleModule } from "./rules.js";

export const continueRules = ruleModule({
  name: "continue",
  files: only({ folders: [".continue/rules"], accepts: isMarkdown }),
  activation: (doc, read) => {
    const always = doc.data.alwaysApply;
    const globs = read.globs(["globs"]);
    const described = typeof doc.data.description === "string" && doc.data.description.trim() !== "";
    if (always === true) return { kind: "always", reason: "alwaysApply: true", globs };
    if (globs.length > 0) return { kind: "auto", globs };
    // Continue: without alwaysApply a rule with no globs applies everywhere; `alwaysApply: false` leaves it to
    // the agent (by description) or to the user.
    if (always === false) return described ? { kind: "agent-requested" } : { kind: "manual" };
    return null;
  },
  alwaysWithoutGlobs: "Continue rule without globs or alwaysApply: false",
});
