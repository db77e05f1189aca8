import { withoutCode } from "../parse/code.js";

/**
 * The prose of a prompt: what the user wrote in their own words. Code fences, inline code,
 * `<system-reminder>` blocks (which hosts inject), URLs and paths are blanked out, so a mode keyword or a
 * topic word inside them never counts.
 */
export function proseOf(prompt: string): string {
  // A pattern is run only where its text can be: each costs a compile (0.1–0.3 ms) on every hook call.
  const reminders = prompt.toLowerCase().includes("<system-reminder>") ? prompt.replace(/<system-reminder>[\s\S]*?(<\/system-reminder>|$)/gi, " ") : prompt;
  const prose = withoutCode(reminders);
  const urlless = prose.includes("://") ? prose.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, " ") : prose;
  return urlless.includes("/") || urlless.includes("\\") ? urlless.replace(/(?:^|\s)\S+[\\/]\S*/g, " ") : urlless;
}
