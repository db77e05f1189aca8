/** Augment: `.augment/rules/*.md` with `type` (always_apply, agent_requested, manual), and `.augment-guidelines`. */
import { isMarkdown } from "./locate.js";
import { only, ruleModule } from "./rules.js";

export const augmentRules = ruleModule({
  name: "augment",
  files: only({ folders: [".augment/rules"], accepts: isMarkdown }),
  activation: (doc, read) => {
    const type = doc.data.type;
    if (type === undefined || type === null) return null;
    if (type === "always_apply") return { kind: "always", reason: "type: always_apply" };
    if (type === "agent_requested") return { kind: "agent-requested" };
    if (type === "manual") return { kind: "manual" };
    read.warn(`"type": expected always_apply, agent_requested or manual, got ${JSON.stringify(type)}; read from the other fields`, "type");
    return null;
  },
});
export const augmentGuidelines = ruleModule({
  name: "augment-guidelines",
  files: only({ names: [".augment-guidelines"] }),
  always: "legacy .augment-guidelines always applies",
});
