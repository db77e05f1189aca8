import type { Hooks, Plugin, PluginInput } from "@opencode-ai/plugin";
import { ContextCollector } from "../core/collector.js";
import { renderPending } from "../core/render/pending.js";
import { approxTokens } from "../core/tokens.js";
import type { Candidate } from "../core/types.js";
import { selectContext } from "../core/select.js";
import { loadConfig } from "../io/config.js";
import { gather } from "../io/gather.js";
import { findRoot } from "../io/root.js";

type TransformOutput = Parameters<NonNullable<Hooks["experimental.chat.messages.transform"]>>[1];
type TextPart = Extract<TransformOutput["messages"][number]["parts"][number], { type: "text" }>;

const FILE_TOOLS = new Set(["read", "edit", "write", "multiedit"]);

/** opencode loads the root AGENTS.md (or CLAUDE.md) itself. */
const loadedByOpencode = (candidate: Candidate): string | null =>
  candidate.source === "directory-agents" && candidate.path !== null && !candidate.path.includes("/") ? "opencode loads the root agents file itself" : null;

/**
 * ctxinject as an opencode plugin, the seed's own host. After a read or edit, the rules, AGENTS.md and README
 * chains of that file are registered for the session (each file once until it changes); before the next model
 * call they are inserted as a synthetic text part ahead of the user's text in the last user message.
 */
export const CtxinjectPlugin: Plugin = async (input: PluginInput) => {
  const collector = new ContextCollector();
  /** Per session: what was registered, by real path or source:id, with its content hash. */
  const seen = new Map<string, Map<string, string>>();
  let parts = 0;

  return {
    "tool.execute.after": async ({ tool, sessionID, args }) => {
      const file = (args as { filePath?: unknown; file_path?: unknown } | undefined)?.filePath ?? (args as { file_path?: unknown } | undefined)?.file_path;
      if (!FILE_TOOLS.has(tool.toLowerCase()) || typeof file !== "string") return;
      const injected = seen.get(sessionID) ?? new Map<string, string>();
      seen.set(sessionID, injected);
      try {
        const gathered = await gather({ cwd: input.directory, files: [file], session: { id: sessionID, entries: [], injected }, excludeFor: () => loadedByOpencode });
        for (const entry of gathered.selection.entries) collector.register(sessionID, entry);
        for (const record of gathered.injectionRecords(gathered.selection.candidates)) injected.set(record.key, record.hash);
      } catch {
        // A broken config or an unreadable tree must never break the user's tool call; the next call tries again.
      }
    },

    "experimental.chat.messages.transform": async (_input, output) => {
      const last = [...output.messages].reverse().find((m) => m.info.role === "user");
      if (!last) return;
      const at = last.parts.findIndex((p) => p.type === "text" && !p.synthetic);
      const sessionID = last.info.sessionID;
      if (at === -1) return;
      await registerKeywordModes(collector, sessionID, (last.parts[at] as TextPart).text, input.directory);
      if (!collector.hasPending(sessionID)) return;
      const text = renderPending(collector.consume(sessionID), "markdown", approxTokens).replace(/\n+$/, "");
      const part: TextPart = { id: `prt_ctxinject_${Date.now()}_${parts++}`, sessionID, messageID: last.info.id, type: "text", text, synthetic: true };
      last.parts.splice(at, 0, part);
    },

    event: async ({ event }) => {
      if (event.type === "session.deleted") {
        collector.clear(event.properties.info.id);
        seen.delete(event.properties.info.id);
      } else if (event.type === "session.compacted") {
        seen.delete(event.properties.sessionID);
      }
    },
  };
};

/**
 * The user's words may switch on keyword modes: the core's own selection decides (priorities, modes and
 * sources disabled in the config), as for the CLI and the Claude hook.
 */
async function registerKeywordModes(collector: ContextCollector, sessionID: string, text: string, directory: string): Promise<void> {
  try {
    const { config } = await loadConfig(findRoot(directory, undefined).root);
    const { entries } = selectContext({ files: [], targets: [], prompt: text, config });
    for (const entry of entries) if (entry.source === "keyword-detector") collector.register(sessionID, entry);
  } catch {
    // A broken config must not break the chat; the build path reports it.
  }
}

export default CtxinjectPlugin;
