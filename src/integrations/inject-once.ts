import type { Config } from "../core/config.js";
import type { Warning } from "../core/types.js";
import { runPipeline, type RunEnvironment, type SelectionRequest } from "../io/pipeline.js";

/** What every host integration (command hooks, the opencode plugin) needs to inject each text once per session. */
export interface Injector {
  /** The agent, by the profile name `--as` takes: what it loads itself is left out, as its own settings have it. */
  agent: string;
  /** Inject what the host loads itself anyway (config `<host>.includeNative`). */
  includeNative(config: Config): boolean;
  /** The host's cap on injected text, in characters, where it has one. */
  maxChars?(config: Config): number;
}

/**
 * The context for one event of a session, recorded as injected: what the host does not load itself and the
 * session has not had yet; "" when nothing is new. The index of omitted rules and warnings already shown in the
 * session are not repeated.
 */
export async function injectOnce(injector: Injector, run: RunEnvironment, session: string, request: Omit<SelectionRequest, "session" | "format">): Promise<{ context: string; warnings: Warning[] }> {
  const selected = await runPipeline(run, {
    ...request,
    purpose: "hook",
    session,
    format: "markdown",
    hostCap: true,
    limits: (config) => ({
      ...(injector.maxChars && { maxChars: injector.maxChars(config) }),
      once: true,
      ...(!injector.includeNative(config) && { native: injector.agent }),
    }),
  });
  const fresh = selected.doc.entries.length > 0;
  await selected.finish();
  return { context: fresh ? selected.output.replace(/\n+$/, "") : "", warnings: selected.warnings };
}
