/** Kiro: `.kiro/steering/*.md` with `inclusion` (always, fileMatch, manual, auto) and `fileMatchPattern`. */
import { isMarkdown } from "./locate.js";
import { describedOrManual, globsOrManual, only, ruleModule } from "./rules.js";

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
      case "fileMatch":
        return globsOrManual(read, ["fileMatchPattern"], "inclusion: fileMatch", "inclusion");
      case "auto":
        return describedOrManual(doc, read, "inclusion: auto", "inclusion");
      case "manual":
        return { kind: "manual" };
      default:
        read.warn(
          `"inclusion": expected always, fileMatch, auto or manual, got ${JSON.stringify(inclusion)}; read as always, as Kiro does without the field`,
          "inclusion",
        );
        return { kind: "always", reason: "steering file with an unknown inclusion" };
    }
  },
});
