import type { Config } from "../core/config.js";
import type { Warning } from "../core/types.js";
import { runPipeline, type RunEnvironment, type SelectionRequest } from "../io/pipeline.js";
import type { Delivery } from "../io/session/session-claim.js";

/** What every host integration (command hooks, the opencode plugin) needs to inject each text once per session. */
export interface Injector {
  /** The agent, by the profile name `--as` takes: what it loads itself is left out, as its own settings have it. */
  agent: string;
  /** Inject what the host loads itself anyway (config `<host>.includeNative`). */
  includeNative(config: Config): boolean;
  /** The host's cap on injected text, in characters, where it has one. */
  maxChars?(config: Config): number;
}

/** One event's context and the warnings to show, held for the session until the caller has delivered it. */
export interface Injection extends Delivery {
  context: string;
  warnings: Warning[];
}

/**
 * The context for one event of a session: what the host does not load itself and the session has not had yet; ""
 * when nothing is new. The index of omitted rules and warnings already shown in the session are not repeated. It
 * is recorded as injected by `finish()`, which the caller runs once its answer is written (`abort()` when not).
 */
export async function injectOnce(
  injector: Injector,
  run: RunEnvironment,
  session: string,
  request: Omit<SelectionRequest, "session" | "format">,
): Promise<Injection> {
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
  return { context: fresh ? selected.output.replace(/\n+$/, "") : "", warnings: selected.warnings, finish: selected.finish, abort: selected.abort };
}
