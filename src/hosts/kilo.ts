import { kilo } from "../core/agents/kilo.js";
import type { Host } from "./host.js";

/**
 * Kilo (`@kilocode/cli`, an opencode fork) takes opencode's plugin API from `.kilo/plugin/` (not `.opencode/`), and
 * from `plugin/` in its user config folder (~/.config/kilo): the same plugin as opencode's (integrations/kilo.ts),
 * leaving out what Kilo loads itself. Offline, Kilo waits at every start while it tries to install
 * `@kilocode/plugin` into each config folder that holds a plugin; init installs it so that it starts at once.
 */
export const kiloHost: Host = {
  name: "kilo",
  short: "kilo",
  label: "Kilo",
  profile: kilo,
  install: {
    plugin: { folder: ".kilo", file: "plugin/ctxinject.js", user: "kilo", entry: "kilo", package: { name: "@kilocode/plugin", version: kilo.version } },
  },
  markers: [".kilo/", ".kilocode/", "kilo.json", "kilo.jsonc"],
};
