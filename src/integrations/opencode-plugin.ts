import type { Hooks, Plugin, PluginInput } from "@opencode-ai/plugin";
import type { Warning } from "../core/types.js";
import type { SelectionRequest } from "../io/pipeline.js";
import { hostSettings, type Host } from "../hosts/host.js";
import { SessionStore, stateDir } from "../io/session/session-store.js";
import { compactionDigest } from "./compaction-digest.js";
import { injectOnce, type Injection, type Injector } from "./inject-once.js";
import { patchTargets, listedFiles } from "../hosts/tool-targets.js";

type ChatOutput = Parameters<NonNullable<Hooks["chat.message"]>>[1];
type Part = ChatOutput["parts"][number];
type TextPart = Extract<Part, { type: "text" }>;

/** Tools whose `filePath` argument is the file touched. `read` is the one that adds nested AGENTS.md itself. */
const FILE_TOOLS = new Set(["read", "edit", "write", "multiedit"]);
/** Search tools: the files they list become targets, at most this many (a wide grep must not pull in every package). */
const LISTING_TOOLS = new Set(["grep", "glob"]);
const MAX_LISTED = 10;

/**
 * ctxinject as an opencode plugin. Everything it adds is stored by opencode with the conversation, so it lasts
 * for the whole session and sits where it happened (the provider's prompt cache keeps its prefix):
 * - `chat.message`: the new user message gets a synthetic text part with what `build` gives for its text and
 *   its attached files;
 * - `tool.execute.after` on read, edit, write, multiedit, apply_patch, grep and glob: the rules of the files
 *   touched or listed are appended to the tool's result;
 * - `experimental.session.compacting`: the digest of what was in force joins the compaction's context.
 * What the session has injected lives in ctxinject's session store under opencode's session id, so
 * `ctxinject register --session <id>` from a git hook or a background task reaches the conversation. What
 * the host loads itself (its profile) is left out unless its config group says `includeNative`.
 */
/**
 * The plugin for a host that takes opencode's plugin API (opencode; Kilo, its fork, loads the same plugin from
 * `.kilo/plugin`): what it leaves out is that host's profile, and its config group says includeNative. The modules a
 * host loads (opencode.ts, kilo.ts) export nothing but the plugin: the host calls every function a plugin module exports.
 */
export function pluginFor(host: Host): Plugin {
  const injector: Injector = { agent: host.name, includeNative: (config) => hostSettings(host, config).includeNative };
  return (input) => plugin(injector, input);
}

async function plugin(host: Injector, input: PluginInput): ReturnType<Plugin> {
  const run = { cwd: input.directory, env: process.env, platform: process.platform };
  const report = (warnings: Warning[]) => {
    for (const w of warnings) void log(input, "warn", `${w.file ? `${w.file}${w.line ? `:${w.line}` : ""}: ` : ""}${w.message}`);
  };

  /**
   * Hands the event's context to `deliver` (which puts it in opencode's output), then marks it given: a context that
   * never reached the output is given again on the session's next event.
   */
  const answer = async (session: string, request: Omit<SelectionRequest, "session" | "format">, deliver: (block: string) => void): Promise<void> => {
    let injected: Injection | undefined;
    try {
      injected = await injectOnce(host, run, session, request);
      report(injected.warnings);
      if (injected.context !== "") deliver(injected.context);
      await injected.finish();
    } catch (error) {
      await injected?.abort().catch(() => undefined);
      // A broken config or an unreadable tree must never break the user's chat; it is logged and the next event tries again.
      await log(input, "error", error instanceof Error ? error.message : String(error));
    }
  };

  return {
    "chat.message": async ({ sessionID }, output) => {
      const text = output.parts
        .filter((p): p is TextPart => p.type === "text" && !p.synthetic)
        .map((p) => p.text)
        .join("\n");
      const anchor = output.parts.find((p) => p.type === "text") ?? output.parts[0];
      if (!anchor) return;
      // An id right after the user's text keeps the block next to it when opencode orders the parts by id.
      await answer(sessionID, { prompt: text, files: attachedFiles(output.parts) }, (block) =>
        output.parts.push({ id: `${anchor.id}ctxinject`, sessionID, messageID: output.message.id, type: "text", text: block, synthetic: true }),
      );
    },

    "tool.execute.after": async ({ tool, sessionID, args }, output) => {
      const name = tool.toLowerCase();
      const files = toolFiles(name, args, output.output, input.directory);
      if (files.length === 0) return;
      await answer(sessionID, { files, readByAgent: name === "read" }, (block) => (output.output = `${output.output}\n\n${block}`));
    },

    // The compaction's summary keeps what was in force (the digest); full texts come back on use afterwards.
    "experimental.session.compacting": async ({ sessionID }, output) => {
      try {
        const digest = await compactionDigest(host, run, sessionID);
        if (digest !== "") output.context.push(digest);
      } catch (error) {
        await log(input, "error", error instanceof Error ? error.message : String(error));
      }
    },

    event: async ({ event }) => {
      const store = () => new SessionStore(stateDir(run.env));
      if (event.type === "session.deleted") await store().clear(event.properties.info.id);
      else if (event.type === "session.compacted") await store().resetInjected(event.properties.sessionID);
    },
  };
}

/** The files a tool call touched or listed, absolute or relative to opencode's folder. */
function toolFiles(tool: string, args: unknown, output: string, directory: string): string[] {
  const a = (args ?? {}) as Record<string, unknown>;
  if (FILE_TOOLS.has(tool)) {
    const file = a.filePath ?? a.file_path;
    return typeof file === "string" ? [file] : [];
  }
  if (tool === "apply_patch" || tool === "patch") return typeof a.patchText === "string" ? patchTargets(a.patchText) : [];
  if (LISTING_TOOLS.has(tool)) return listedFiles(output, directory).slice(0, MAX_LISTED);
  return [];
}

/** Files attached to the message (`opencode run -f`, `@file` in the TUI). */
function attachedFiles(parts: Part[]): string[] {
  const files: string[] = [];
  for (const part of parts) {
    if (part.type !== "file") continue;
    const source = (part as { source?: { path?: unknown } }).source;
    if (typeof source?.path === "string") files.push(source.path);
    else if (part.url.startsWith("file://")) files.push(decodeURIComponent(new URL(part.url).pathname));
  }
  return files;
}

async function log(input: PluginInput, level: "warn" | "error", message: string): Promise<void> {
  try {
    await input.client.app.log({ body: { service: "ctxinject", level, message } });
  } catch {
    // Logging must never be the thing that fails a chat.
  }
}
