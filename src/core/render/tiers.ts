import type { Omitted } from "../types.js";

/**
 * The words of the relevance tiers, in one place: every format, every host's answer and the MCP tool say the same
 * thing, so an agent reads the same instruction whichever way it got the context.
 */
export const LIKELY_TITLE = "Likely relevant: read these before you start";
export const INDEX_TITLE = "Not included here: read these when the task needs them";
/** What explain (and coverage) says of a rule left out of the injection and named in the plain index. */
export const INDEX_EXPLAINED = "listed in the index";

/** What explain says of a rule in the likely tier. */
export const LIKELY_EXPLAINED = "likely relevant: listed first in the index, to be read before starting";

/** The likely tier first, then the plain index (each keeping its order). */
export function byTier(omitted: Omitted[]): { likely: Omitted[]; plain: Omitted[] } {
  const likely = omitted.filter((o) => o.tier === "likely");
  return { likely, plain: likely.length === 0 ? omitted : omitted.filter((o) => o.tier !== "likely") };
}

/** ` (likely: the prompt says rotate, keys)`: why a likely item is there; "" for the plain index. */
export const whyText = (o: Omitted): string => (o.tier === "likely" && o.why ? ` (why: ${o.why.replace(/\s+/g, " ")})` : "");
