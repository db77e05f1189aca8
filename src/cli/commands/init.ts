import { installPreCommitHook } from "../../io/git-hook.js";
// fs.promises, not node:fs/promises: it loads on first use instead of at every start of the bundled CLI.
import { existsSync, promises as fs } from "node:fs";
import { join } from "node:path";
import { CtxinjectError } from "../../core/errors.js";
import { CLAUDE_SETTINGS, CODEX_SETTINGS, GEMINI_SETTINGS, hookCommand, mergeHooks, ourHook, type HookSettings } from "../../io/hook-settings.js";
import { readBoundedText } from "../../io/bounded-read.js";
import { configFileIn } from "../../io/config.js";
import { spawnSync } from "../../io/lazy-node.js";
import { opencodeDependenciesMissing, OPENCODE_PLUGIN_FILE, writeOpencodePackage, writeOpencodePlugin } from "../../io/opencode-setup.js";
import { opencode } from "../../core/agents/opencode.js";
import { findRoot } from "../../io/root.js";
import type { CliContext } from "../context.js";
import { renderConfigTemplate } from "../../core/config-docs.js";

export const DEFAULT_GENERATED = ".context/AGENTS.generated.md";

export interface InitFlags {
  root?: string;
  gitHook?: boolean;
  out?: string;
  claude?: boolean;
  user?: boolean;
  opencode?: boolean;
  codex?: boolean;
  gemini?: boolean;
  /** false with --no-install: --opencode does not run npm in .opencode. */
  install?: boolean;
}

export async function runInit(ctx: CliContext, flags: InitFlags): Promise<number> {
  const { root } = findRoot(ctx.cwd, flags.root);
  const host = flags.claude ? CLAUDE_SETTINGS : flags.codex ? CODEX_SETTINGS : flags.gemini ? GEMINI_SETTINGS : null;
  if (host) return initHooks(ctx, root, host, flags.user === true);
  if (flags.opencode) return initOpencode(ctx, root, flags.install !== false);
  if (flags.gitHook) {
    const hook = await installPreCommitHook(root, flags.out ?? DEFAULT_GENERATED);
    ctx.stderr.write(`ctxinject: pre-commit hook ${hook} now regenerates and stages ${flags.out ?? DEFAULT_GENERATED}\n`);
    return 0;
  }
  const existing = configFileIn(root);
  if (existing) ctx.stderr.write(`ctxinject: ${existing} already configures ctxinject; nothing written\n`);
  else {
    const file = join(root, ".ctxinjectrc.yaml");
    await fs.writeFile(file, renderConfigTemplate(), { flag: "wx" });
    ctx.stderr.write(`ctxinject: wrote ${file}\n`);
  }
  sayWhatToInstall(ctx, root);
  return 0;
}

/** An agent `init` can install into, and the files that show a repository is set up for it. */
interface Installable {
  name: string;
  flag: string;
  markers: readonly string[];
  host?: HookSettings;
}

const INSTALLABLE: readonly Installable[] = [
  { name: "Claude Code", flag: "--claude", markers: [".claude/", "CLAUDE.md", "CLAUDE.local.md"], host: CLAUDE_SETTINGS },
  { name: "Codex", flag: "--codex", markers: [".codex/", "AGENTS.md"], host: CODEX_SETTINGS },
  { name: "Gemini CLI", flag: "--gemini", markers: [".gemini/", "GEMINI.md"], host: GEMINI_SETTINGS },
  { name: "opencode", flag: "--opencode", markers: [".opencode/", "opencode.json", "opencode.jsonc"] },
];

/** Agents with no hook to install: their files are read like any other source, and `ctxinject mcp` serves them. */
const READ_ONLY: ReadonlyArray<{ name: string; markers: readonly string[] }> = [
  { name: "Cursor", markers: [".cursor/", ".cursorrules"] },
  { name: "GitHub Copilot", markers: [".github/copilot-instructions.md", ".github/instructions/"] },
  { name: "Windsurf", markers: [".windsurf/", ".windsurfrules"] },
];

const present = (root: string, markers: readonly string[]) => markers.filter((marker) => existsSync(join(root, marker)));

/**
 * `init` without an agent: which agents the repository is set up for (their files at the root) and what
 * `init --<agent>` would install for each, with the command it would write; nothing is installed.
 */
function sayWhatToInstall(ctx: CliContext, root: string): void {
  const lines: string[] = [];
  for (const agent of INSTALLABLE) {
    const found = present(root, agent.markers);
    if (found.length === 0) continue;
    const seen = `${agent.name} (${found.join(", ")})`;
    if (!agent.host) {
      const done = existsSync(join(root, OPENCODE_PLUGIN_FILE));
      lines.push(`  ${seen}: ${done ? `installed (${OPENCODE_PLUGIN_FILE})` : `\`ctxinject init ${agent.flag}\` would write ${OPENCODE_PLUGIN_FILE} and .opencode/package.json`}`);
      continue;
    }
    const settings = agent.host.project;
    if (hasOurHook(join(root, settings), agent.host)) {
      lines.push(`  ${seen}: installed (${settings}); \`ctxinject init ${agent.flag}\` again refreshes it`);
      continue;
    }
    const { command, why } = hookCommand(agent.host, agent.name, root, ctx.self, true, ctx.env);
    lines.push(`  ${seen}: \`ctxinject init ${agent.flag}\` would merge hooks running \`${command}\` into ${settings} (${why})`);
  }
  const others = READ_ONLY.map((agent) => ({ agent, found: present(root, agent.markers) })).filter(({ found }) => found.length > 0);
  for (const { agent, found } of others) lines.push(`  ${agent.name} (${found.join(", ")}): no hook to install; \`ctxinject mcp\` serves its context on demand`);
  if (lines.length === 0) {
    ctx.stderr.write(`ctxinject: no agent is set up in ${root} yet (no ${INSTALLABLE.flatMap((a) => a.markers).join(", ")}); \`ctxinject init --claude\`, --codex, --gemini or --opencode installs into one\n`);
    return;
  }
  ctx.stderr.write(`ctxinject: this repository is set up for these agents (nothing installed now):\n${lines.join("\n")}\n`);
}

/** Whether a host's settings file names ctxinject's hook (the repository's file, read bounded; unreadable: no). */
function hasOurHook(file: string, host: HookSettings): boolean {
  if (!existsSync(file)) return false;
  try {
    return ourHook(host.agent).test(readBoundedText(file));
  } catch {
    return false;
  }
}

/**
 * The plugin file and `.opencode/package.json`, then opencode's dependencies installed once with npm (online, now)
 * so that opencode's own install at start finds nothing to do and a later offline run does not wait on it.
 */
async function initOpencode(ctx: CliContext, root: string, install: boolean): Promise<number> {
  const plugin = await writeOpencodePlugin(root);
  const local = existsSync(join(root, "node_modules/ctxinject/package.json"));
  ctx.stderr.write(`ctxinject: ${plugin ? "wrote" : "unchanged"} ${join(root, OPENCODE_PLUGIN_FILE)}: it loads the project's ctxinject (${local ? "installed" : "not installed yet"}), else the one on PATH\n`);
  const manifest = await writeOpencodePackage(root, opencode.version);
  ctx.stderr.write(`ctxinject: ${manifest ? "wrote" : "unchanged"} ${join(root, ".opencode/package.json")}\n`);
  const missing = await opencodeDependenciesMissing(root);
  if (missing === null) return 0;
  const command = "npm install --prefix .opencode --no-audit --no-fund";
  if (!install) {
    ctx.stderr.write(`ctxinject: ${missing} not there yet: opencode installs it at its next start (online), or run \`${command}\` now\n`);
    return 0;
  }
  const npm = spawnSync("npm", ["install", "--prefix", ".opencode", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: root, encoding: "utf8", env: ctx.env as NodeJS.ProcessEnv });
  if (npm.status === 0) {
    ctx.stderr.write("ctxinject: installed opencode's plugin package into .opencode (opencode starts without the network)\n");
    return 0;
  }
  ctx.stderr.write(`ctxinject: warning: \`${command}\` failed (${(npm.stderr || npm.error?.message || "").trim().split("\n").pop()}); opencode installs it at its next start when online\n`);
  return 0;
}

const HOST_NAMES: Record<HookSettings["agent"], string> = { claude: "Claude Code", codex: "Codex", gemini: "Gemini CLI" };

/** A host's command hooks merged into its project (or, with --user, its user) settings. */
async function initHooks(ctx: CliContext, root: string, host: HookSettings, user: boolean): Promise<number> {
  const home = ctx.env.HOME;
  if (user && !home) throw new CtxinjectError(`--user needs HOME to find ~/${host.user}`);
  const file = user ? join(home!, host.user) : join(root, host.project);
  const { command, why } = hookCommand(host, HOST_NAMES[host.agent], root, ctx.self, !user, ctx.env);
  const changed = await mergeHooks(file, host, command);
  ctx.stderr.write(`ctxinject: ${changed ? "wrote" : "unchanged"} ${file}: ${HOST_NAMES[host.agent]} runs \`${command}\` (${why})\n`);
  // Codex runs a new or changed hook only once the user has trusted it; an untrusted hook is skipped without a word.
  if (host.agent === "codex") ctx.stderr.write("ctxinject: Codex runs new hooks only once trusted: start `codex` and accept \"Hooks need review\" (or /hooks); `codex exec` in automation needs --dangerously-bypass-hook-trust\n");
  return 0;
}
