import { withoutCode } from "../parse/code.js";

/**
 * The prose of a prompt: what the user wrote in their own words. Code fences, inline code,
 * `<system-reminder>` blocks (which hosts inject), URLs and paths are blanked out, so a mode keyword or a
 * topic word inside them never counts.
 */
export function proseOf(prompt: string): string {
  return withoutCode(prompt.replace(/<system-reminder>[\s\S]*?(<\/system-reminder>|$)/gi, " "))
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, " ")
    .replace(/(?:^|\s)\S+[\\/]\S*/g, " ");
}
