/** Windsurf: `.windsurf/rules/*.md` with `trigger`, and the legacy `.windsurfrules`. */
import { isMarkdown } from "./locate.js";
import { only, ruleModule, type Activation, type FieldReader } from "./rules.js";
import type { ParsedDocument } from "../parse/frontmatter.js";

/** Windsurf's four activation modes; without `trigger` the common reading applies (globs, description…). */
export function windsurfActivation(doc: ParsedDocument, read: FieldReader): Activation | null {
  const trigger = doc.data.trigger;
  if (trigger === undefined || trigger === null) return null;
  switch (trigger) {
    case "always_on":
      return { kind: "always", reason: "trigger: always_on" };
    case "glob": {
      const globs = read.globs(["globs"]);
      if (globs.length > 0) return { kind: "auto", globs };
      read.warn('"trigger: glob" without "globs": the rule never applies; read as manual', "trigger");
      return { kind: "manual" };
    }
    case "model_decision":
      if (typeof doc.data.description === "string" && doc.data.description.trim() !== "") return { kind: "agent-requested" };
      read.warn('"trigger: model_decision" without a "description": nothing to decide on; read as manual', "trigger");
      return { kind: "manual" };
    case "manual":
      return { kind: "manual" };
    default:
      read.warn(`"trigger": expected always_on, glob, model_decision or manual, got ${JSON.stringify(trigger)}; read from the other fields`, "trigger");
      return null;
  }
}

export const windsurfRules = ruleModule({ name: "windsurf", files: only({ folders: [".windsurf/rules"], accepts: isMarkdown }), activation: windsurfActivation });
export const windsurfrulesFile = ruleModule({ name: "windsurfrules", files: only({ names: [".windsurfrules"] }), always: "legacy .windsurfrules always applies" });
