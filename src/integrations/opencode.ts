import type { Plugin } from "@opencode-ai/plugin";
import { opencodeHost } from "../hosts/opencode.js";
import { pluginFor } from "./opencode-plugin.js";

/** ctxinject's opencode plugin (`ctxinject/opencode`): opencode-plugin.ts, leaving out what opencode loads itself. */
export const CtxinjectPlugin: Plugin = pluginFor(opencodeHost);

export default CtxinjectPlugin;
