/**
 * The hook events `npm run bench` times for each host, as that host writes them on standard input: a prompt naming
 * the bench's target file and a read of it, where the host has those events. One row each in the hosts' table; a new
 * host adds its lines here.
 */
import { join } from "node:path";
import type { Generated } from "./generate.js";

type EventFile = (name: string, fields: Record<string, unknown>, agent?: string, tag?: string) => { command: string; env: Record<string, string | undefined> };
export type HostEvent = { label: string; command: { command: string; env?: Record<string, string | undefined> } };

export function hostEvents(tree: Generated, eventFile: EventFile): HostEvent[] {
  const prompt = `fix the retry in ${tree.target}`;
  const path = join(tree.root, tree.target);
  const rows: [string, string, Record<string, unknown>, string][] = [
    ["codex UserPromptSubmit", "UserPromptSubmit", { prompt }, "codex"],
    ["codex PostToolUse (Bash cat)", "PostToolUse", { tool_name: "Bash", tool_input: { command: `cat ${tree.target}` } }, "codex"],
    ["gemini BeforeAgent", "BeforeAgent", { prompt }, "gemini"],
    ["gemini AfterTool (read_file)", "AfterTool", { tool_name: "read_file", tool_input: { file_path: tree.target } }, "gemini"],
    // What the Cline plugin hands over (io/cline-setup.ts): a run's start with its prompt, a read_files result.
    ["cline beforeRun", "beforeRun", { prompt: `<user_input mode="act">${prompt}</user_input>` }, "cline"],
    ["cline afterTool (read_files)", "afterTool", { tool_name: "read_files", tool_input: { file_paths: [path] } }, "cline"],
    ["qwen UserPromptSubmit", "UserPromptSubmit", { prompt }, "qwen"],
    ["qwen PostToolUse (read_file)", "PostToolUse", { tool_name: "read_file", tool_input: { file_path: path } }, "qwen"],
    ["droid SessionStart", "SessionStart", { source: "startup" }, "droid"],
    ["droid PostToolUse (Read)", "PostToolUse", { tool_name: "Read", tool_input: { file_path: path } }, "droid"],
    ["copilot UserPromptSubmit", "UserPromptSubmit", { prompt }, "copilot"],
    ["copilot PostToolUse (Read)", "PostToolUse", { tool_name: "Read", tool_input: { path } }, "copilot"],
    ["cursor beforeSubmitPrompt", "beforeSubmitPrompt", { prompt, attachments: [], workspace_roots: [tree.root] }, "cursor"],
  ];
  return rows.map(([label, name, fields, agent]) => ({ label, command: eventFile(name, fields, agent) }));
}
