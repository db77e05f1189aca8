// fs.promises, not node:fs/promises: it loads on first use instead of at every start of the bundled CLI.
import { existsSync, promises as fs } from "node:fs";
import { dirname, join } from "node:path";
import { CtxinjectError } from "../core/errors.js";
import { writeIfChanged } from "./out-file.js";

/** The events ctxinject answers, and the tools each one is for. */
export const CLAUDE_HOOK_EVENTS: ReadonlyArray<{ event: string; matcher?: string }> = [
  { event: "UserPromptSubmit" },
  { event: "PreToolUse", matcher: "Write|Edit|MultiEdit|NotebookEdit" },
  { event: "PostToolUse", matcher: "Read|Write|Edit|MultiEdit|NotebookEdit" },
  { event: "SubagentStart" },
  { event: "SessionStart" },
  { event: "SessionEnd" },
];

interface HookCommand {
  type: string;
  command?: string;
  [key: string]: unknown;
}
interface MatcherGroup {
  matcher?: string;
  hooks: HookCommand[];
  [key: string]: unknown;
}

const OURS = /ctxinject(\.js)?["']?\s+hook\s+claude\b/;

/**
 * Merges ctxinject's hooks into a Claude Code settings file: other keys and other hooks stay as they are, an
 * earlier ctxinject entry is replaced (so running it twice changes nothing). Returns whether the file changed.
 */
export async function mergeClaudeHooks(file: string, command: string): Promise<boolean> {
  let settings: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      settings = JSON.parse(await fs.readFile(file, "utf8")) as Record<string, unknown>;
    } catch (error) {
      throw new CtxinjectError(`${file}: not valid JSON (${(error as Error).message}); fix it first, nothing was written`);
    }
    if (settings === null || typeof settings !== "object" || Array.isArray(settings)) throw new CtxinjectError(`${file}: expected a JSON object; nothing was written`);
  }
  const hooks = (settings.hooks ?? {}) as Record<string, MatcherGroup[]>;
  for (const { event, matcher } of CLAUDE_HOOK_EVENTS) {
    const groups = (Array.isArray(hooks[event]) ? hooks[event] : [])
      .map((g) => ({ ...g, hooks: (g.hooks ?? []).filter((h) => !(typeof h.command === "string" && OURS.test(h.command))) }))
      .filter((g) => g.hooks.length > 0);
    groups.push({ ...(matcher && { matcher }), hooks: [{ type: "command", command, timeout: 10 }] });
    hooks[event] = groups;
  }
  settings.hooks = hooks;
  await fs.mkdir(dirname(file), { recursive: true });
  return writeIfChanged(file, `${JSON.stringify(settings, null, 2)}\n`);
}

/**
 * The command Claude Code runs, resolvable without PATH: the project's own install through $CLAUDE_PROJECT_DIR
 * when there is one (and the settings are the project's), else this very executable by its absolute path.
 */
export function hookCommand(root: string, self: string, forProject: boolean): string {
  if (forProject && existsSync(join(root, "node_modules/.bin/ctxinject"))) return `"$CLAUDE_PROJECT_DIR"/node_modules/.bin/ctxinject hook claude`;
  return `${shellQuote(self)} hook claude`;
}

function shellQuote(path: string): string {
  return /^[\w./@+-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
