import { writeIfChanged } from "../fs/out-file.js";
import type { WriteTarget } from "../fs/confine.js";

/**
 * The Cline plugin `init --cline` writes: it hands each run's start and each file tool's result to `ctxinject hook
 * cline` (through the hook server when it is warm) and gives back the `appendContext` it answers. A team commits
 * this file, so it names no path of the machine that wrote it: ctxinject is found where the plugin runs — the
 * project's own install (from the workspace up), else the one on PATH through its bin's link (npm links
 * bin/ctxinject.js) or, where npm writes a shim instead (Windows), the package beside the shim. Cline runs project
 * plugins in a Node process of their own (its sandbox), so `process.execPath` is a Node that runs ctxinject.
 *
 * What it sends is the subset of Claude's hook fields ctxinject reads (src/hosts/cline.ts): the session is Cline's
 * core session (what `cline --id` resumes), and a subagent (a run with a parent agent) is a conversation of its own.
 *
 * The user's plugin (`pinned`: this ctxinject's real path) runs in every workspace, so it names that one file: found
 * from the workspace up, it would run whatever ctxinject the next repository ships in its node_modules.
 */
export function clinePluginSource(pinned?: string): string {
  const from =
    pinned === undefined ? "the project's\n// own install, else the ctxinject on PATH" : `${pinned.replace(/[\r\n]/g, " ")},\n// whatever the workspace holds`;
  return `// Written by \`ctxinject init --cline\`; run it again to refresh. Runs \`ctxinject hook cline\` (${from}) when a run starts and after a file tool, and adds what it answers.
import { spawn } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";

const BIN = "node_modules/ctxinject/bin/ctxinject.js";
const PINNED = ${JSON.stringify(pinned ?? null)};
// Cline waits 3 s for a plugin's hook; past this the run goes on without context.
const LIMIT_MS = 2500;

function findCtxinject(root) {
  if (PINNED !== null) return existsSync(PINNED) ? PINNED : null;
  for (let dir = root; ; dir = dirname(dir)) {
    if (existsSync(join(dir, BIN))) return join(dir, BIN);
    if (dirname(dir) === dir) break;
  }
  for (const dir of (process.env.PATH ?? process.env.Path ?? "").split(delimiter)) {
    if (dir === "") continue;
    try {
      const bin = realpathSync(join(dir, "ctxinject"));
      if (bin.endsWith(".js")) return bin;
    } catch {}
    if (existsSync(join(dir, BIN))) return join(dir, BIN);
  }
  return null;
}

let root = process.cwd();
let session;
let bin;
let told = false;

function ask(event) {
  bin ??= findCtxinject(root);
  if (bin === null) {
    if (!told) console.error("ctxinject: no ctxinject in the project or on PATH, so no rules are added (npm install --save-dev ctxinject)");
    told = true;
    return Promise.resolve(undefined);
  }
  // A Node runs ctxinject: the sandbox's own, or the one on PATH where Cline runs plugins in its Bun process.
  const node = process.versions.bun ? "node" : process.execPath;
  return new Promise((resolve) => {
    let out = "";
    const child = spawn(node, [bin, "hook", "cline"], { cwd: root, stdio: ["pipe", "pipe", "inherit"], windowsHide: true });
    const timer = setTimeout(() => child.kill(), LIMIT_MS);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", () => resolve(undefined));
    child.on("close", () => {
      clearTimeout(timer);
      try {
        const answer = JSON.parse(out);
        if (typeof answer.systemMessage === "string") console.error(answer.systemMessage);
        resolve(typeof answer.appendContext === "string" && answer.appendContext !== "" ? { appendContext: answer.appendContext } : undefined);
      } catch {
        resolve(undefined);
      }
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(event));
  });
}

/** The session and agent of a hook's snapshot: a subagent (it has a parent) is its own conversation. */
const who = (snapshot) => ({
  session_id: session ?? snapshot?.conversationId ?? "cline",
  ...(snapshot?.parentAgentId ? { agent_id: snapshot.agentId } : {}),
  cwd: root,
});

/** The text of the last user message: the run's prompt (a resumed session's earlier messages come first). */
function promptOf(messages) {
  const user = [...(messages ?? [])].reverse().find((m) => m.role === "user");
  return (user?.content ?? []).filter((p) => p.type === "text").map((p) => p.text).join("\\n");
}

export default {
  name: "ctxinject",
  manifest: { capabilities: ["hooks"] },
  setup(_api, ctx) {
    root = ctx?.workspaceInfo?.rootPath ?? root;
    session = ctx?.session?.sessionId;
  },
  hooks: {
    beforeRun: ({ snapshot }) => ask({ hook_event_name: "beforeRun", ...who(snapshot), prompt: promptOf(snapshot?.messages) }),
    afterTool: ({ snapshot, toolCall, input }) => ask({ hook_event_name: "afterTool", ...who(snapshot), tool_name: toolCall?.toolName, tool_input: input }),
  },
};
`;
}

/** Writes the plugin file (a project's, or the user's under ~/.cline, `pinned`); returns whether it changed. */
export function writeClinePlugin(file: WriteTarget, pinned?: string): boolean {
  return writeIfChanged(file, clinePluginSource(pinned));
}
