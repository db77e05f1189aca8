import type { Plugin } from "@opencode-ai/plugin";
import { kiloHost } from "../hosts/kilo.js";
import { pluginFor } from "./opencode-plugin.js";

/**
 * ctxinject's Kilo plugin (`ctxinject/kilo`): Kilo takes opencode's plugin API, so this is opencode-plugin.ts
 * leaving out what Kilo loads itself (its profile) and reading the `kilo` config group.
 */
export const CtxinjectPlugin: Plugin = pluginFor(kiloHost);

export default CtxinjectPlugin;
