/**
 * What both Factory Droid suites (what it loads itself; ctxinject installed) need of the real CLI: the binary, a
 * custom model pointing at the fake API, and its `stream-jsonrpc` mode, the headless protocol editors drive it with
 * (the one mode where it fires UserPromptSubmit).
 */
import { installHost } from "./harness.js";
import { HOST_VERSIONS } from "./versions.js";

/** Pinned in versions.ts, with every other host. */
export const DROID_VERSION = HOST_VERSIONS.droid;

export const droidBinary = () => installHost({ name: "droid", version: DROID_VERSION, binary: "droid/bin/droid", versionArgs: ["--version"] });

/** The user's ~/.factory/config.json: one custom model on the fake OpenAI-compatible API. */
export const DROID_MODELS = {
  custom_models: [
    {
      model_display_name: "Fake",
      model: "gpt-fake",
      base_url: "{{API}}/v1",
      api_key: "sk-fake-key-for-tests",
      provider: "generic-chat-completion-api",
      max_tokens: 4096,
    },
  ],
};

export const DROID_ENV = { FACTORY_DROID_AUTO_UPDATE_ENABLED: "false" };

/** The envelope of every request an editor sends Droid (its protocol as 0.215.0 builds it). */
const request = (id: string, method: string, params: Record<string, unknown>) => ({
  type: "request",
  jsonrpc: "2.0",
  factoryApiVersion: "1.0.0",
  id,
  method,
  params,
});

/**
 * One `droid exec` in stream-jsonrpc mode as an editor drives it: `droid.initialize_session` (model and autonomy
 * come from it, not from flags), then each prompt by `droid.add_user_message`, the next one once the agent's turn
 * is over (`agent_turn_completed`). Every prompt is in the one session.
 */
export function droidRpcRun(cwd: string, prompts: string[]) {
  const init = request("init", "droid.initialize_session", { machineId: "ctxinject-tests", cwd, modelId: "custom:gpt-fake", autonomyLevel: "high" });
  return {
    args: ["exec", "--input-format", "stream-jsonrpc", "--output-format", "stream-jsonrpc"],
    converse: [
      { send: init, until: '"id":"init","result"' },
      ...prompts.map((text, i) => ({ send: request(`prompt-${i}`, "droid.add_user_message", { text }), until: '"type":"agent_turn_completed"' })),
    ],
  };
}
