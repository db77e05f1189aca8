/** Windsurf: `.windsurf/rules/*.md` with `trigger`, and the legacy `.windsurfrules`. */
import { isMarkdown } from "./locate.js";
import { describedOrManual, globsOrManual, only, ruleModule, type Activation, type FieldReader } from "./rules.js";
import type { ParsedDocument } from "../parse/frontmatter.js";

/** Windsurf's four activation modes; without `trigger` the common reading applies (globs, description…). */
function windsurfActivation(doc: ParsedDocument, read: FieldReader): Activation | null {
  const trigger = doc.data.trigger;
  if (trigger === undefined || trigger === null) return null;
  switch (trigger) {
    case "always_on":
      return { kind: "always", reason: "trigger: always_on" };
    case "glob":
      return globsOrManual(read, ["globs"], "trigger: glob", "trigger");
    case "model_decision":
      return describedOrManual(doc, read, "trigger: model_decision", "trigger");
    case "manual":
      return { kind: "manual" };
    default:
      read.warn(`"trigger": expected always_on, glob, model_decision or manual, got ${JSON.stringify(trigger)}; read from the other fields`, "trigger");
      return null;
  }
}

export const windsurfRules = ruleModule({
  name: "windsurf",
  files: only({ folders: [".windsurf/rules"], accepts: isMarkdown }),
  activation: windsurfActivation,
});
export const windsurfrulesFile = ruleModule({
  name: "windsurfrules",
  files: only({ names: [".windsurfrules"] }),
  always: "legacy .windsurfrules always applies",
});
