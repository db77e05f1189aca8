/** Zed: `.rules` at a folder's top, always. */
import { only, ruleModule } from "./rules.js";

export const zedRules = ruleModule({ name: "zed", files: only({ names: [".rules"] }), always: "Zed reads .rules always" });
