/** Kiro: `.kiro/steering/*.md` with `inclusion` (always, fileMatch, manual, auto) and `fileMatchPattern`. */
import { isMarkdown } from "./locate.js";
import { only, ruleModule } from "./rules.js";

export const kiroSteering = ruleModule({
  name: "kiro",
  files: only({ folders: [".kiro/steering"], accepts: isMarkdown }),
  activation: (doc, read) => {
    const inclusion = doc.data.inclusion;
    switch (inclusion) {
      // Kiro includes a steering file without `inclusion` in every interaction.
      case undefined:
      case null:
        return { kind: "always", reason: "steering file without inclusion" };
      case "always":
        return { kind: "always", reason: "inclusion: always" };
      case "fileMatch": {
        const globs = read.globs(["fileMatchPattern"]);
        if (globs.length > 0) return { kind: "auto", globs };
        read.warn('"inclusion: fileMatch" without "fileMatchPattern": the file never applies; read as manual', "inclusion");
        return { kind: "manual" };
      }
      case "auto":
        if (typeof doc.data.description === "string" && doc.data.description.trim() !== "") return { kind: "agent-requested" };
        read.warn('"inclusion: auto" without a "description"; read as manual', "inclusion");
        return { kind: "manual" };
      case "manual":
        return { kind: "manual" };
      default:
        read.warn(`"inclusion": expected always, fileMatch, auto or manual, got ${JSON.stringify(inclusion)}; read as always, as Kiro does without the field`, "inclusion");
        return { kind: "always", reason: "steering file with an unknown inclusion" };
    }
  },
});
