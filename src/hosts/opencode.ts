import { opencode, opencodeProfile } from "../core/agents/opencode.js";
import { strings, type Host } from "./host.js";

/**
 * opencode takes ctxinject as a plugin (integrations/opencode.ts), not as a command hook: `init --opencode` writes
 * the loader .opencode/plugins/ctxinject.js (io/host-setup/opencode-setup.ts).
 */
export const opencodeHost: Host = {
  name: "opencode",
  short: "opencode",
  label: "opencode",
  profile: opencode,
  configure: opencodeProfile,
  /** `instructions`, from its global and project configs (opencode merges them; instructions from both apply). */
  readSettings(files) {
    const configHome = files.env.XDG_CONFIG_HOME || files.under(files.home, ".config");
    const candidates = ["opencode.json", "opencode.jsonc"].flatMap((name) => [
      files.under(configHome, `opencode/${name}`),
      files.under(files.root, name),
      files.under(files.root, `.opencode/${name}`),
    ]);
    const instructions: string[] = [];
    let from: string | undefined;
    for (const file of candidates) {
      // An absolute path inside the project is the project's file; others lie outside, where no candidate is.
      const found = strings(files.json(file)?.instructions)?.map((i) => (i.startsWith(`${files.root}/`) ? i.slice(files.root.length + 1) : i));
      if (found?.length) {
        instructions.push(...found);
        from = files.shown(file);
      }
    }
    return instructions.length > 0 ? { instructions, ...(from && { from }) } : undefined;
  },
  install: {
    plugin: { folder: ".opencode", file: "plugins/ctxinject.js", entry: "opencode", package: { name: "@opencode-ai/plugin", version: opencode.version } },
  },
  markers: [".opencode/", "opencode.json", "opencode.jsonc"],
};
