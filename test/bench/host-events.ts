/**
 * The hook events `npm run bench` times for each host: the sample events each host declares (Host.samples in
 * src/hosts/), on the bench's target file and a prompt naming it, as that host writes them on standard input. One row
 * each in the hosts' table; a new host brings its own. Claude Code's are the main table's rows.
 */
import { COMMAND_HOOK_HOSTS } from "../../src/hosts/index.js";
import type { Generated } from "./generate.js";

type EventFile = (name: string, fields: Record<string, unknown>, agent?: string, tag?: string) => { command: string; env: Record<string, string | undefined> };
export type HostEvent = { label: string; command: { command: string; env?: Record<string, string | undefined> } };

export function hostEvents(tree: Generated, eventFile: EventFile): HostEvent[] {
  const place = { root: tree.root, file: tree.target, prompt: `fix the retry in ${tree.target}` };
  return COMMAND_HOOK_HOSTS.filter((host) => host.name !== "claude-code").flatMap((host) =>
    (host.samples ?? []).map((sample) => {
      const { hook_event_name: name, ...fields } = sample.event(place);
      return { label: `${host.short} ${sample.label}`, command: eventFile(String(name), fields, host.short) };
    }),
  );
}
