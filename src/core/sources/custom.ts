/** custom: entries from the config, and entries registered into a session (`register`). */
import { normalizeText } from "../parse/frontmatter.js";
import { makeCandidate, modulePriority, setStatus, type SourceModule } from "./source.js";

export const customEntries: SourceModule = {
  name: "custom",
  source: "custom",
  draft: (ctx) =>
    ctx.custom.map((custom, index) => {
      const source = custom.source ?? "custom";
      const text = normalizeText(custom.content).trim();
      const candidate = makeCandidate({
        source,
        id: custom.id,
        priority: custom.priority ?? modulePriority(ctx.config, customEntries),
        kind: custom.kind ?? "custom",
        path: custom.path ?? null,
        content: ctx.redact(text, custom.path ?? `${source}:${custom.id}`),
        countTokens: ctx.countTokens,
      });
      setStatus(candidate, "included", custom.reason ?? (source === "custom" ? "custom entry from the config" : `registered by ${source}`));
      return { candidate, key: { folder: "", rank: index, path: "" } };
    }),
};
