/** keyword-detector: modes the prompt's own words switch on (ultrawork by default; search, analyze and others when configured). */
import { detectKeywords, keywordModes } from "../prompt/keywords.js";
import { makeCandidate, setStatus, type SourceModule } from "./source.js";

export const keywordDetector: SourceModule = {
  name: "keywords",
  source: "keyword-detector",
  draft: (ctx) => {
    const prompt = ctx.prompt;
    if (prompt === undefined || prompt.trim() === "") return [];
    const modes = keywordModes(ctx.config.keywords, {
      ...(ctx.linear !== undefined && { linear: ctx.linear }),
      refused: (mode, reason) =>
        ctx.warn({ file: ctx.configFile ?? "config", message: `keywords.${mode}.pattern is not run: ${reason}; the mode does not fire` }),
    });
    // A mode that did not fire is listed (explain) only when the config names it: the rest is noise on every prompt.
    const hits = detectKeywords(prompt, modes).filter((hit) => hit.match !== null || ctx.config.keywords[hit.mode.name] !== undefined);
    return hits.map((hit, index) => {
      const candidate = makeCandidate({
        source: keywordDetector.source,
        id: hit.mode.name,
        priority: ctx.config.keywords[hit.mode.name]?.priority ?? ctx.config.sources["keyword-detector"]?.priority ?? hit.mode.priority,
        kind: "keyword",
        path: null,
        // A config's own text for a mode passes the gate as a file's would (built-in modes' texts are ctxinject's).
        content: ctx.config.keywords[hit.mode.name]?.content !== undefined ? ctx.redact(hit.mode.content, ctx.configFile ?? "config") : hit.mode.content,
        countTokens: ctx.countTokens,
      });
      if (!hit.mode.enabled) setStatus(candidate, "disabled", `keywords.${hit.mode.name}.enabled is false`);
      else if (hit.match === null) setStatus(candidate, "unmatched", "no trigger in the prompt");
      else setStatus(candidate, "included", `prompt says "${hit.match}"`);
      return { candidate, key: { folder: "", rank: index, path: "" } };
    });
  },
};
