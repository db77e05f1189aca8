import { installPreCommitHook } from "../../io/git-hook.js";
// fs.promises, not node:fs/promises: it loads on first use instead of at every start of the bundled CLI.
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { CtxinjectError } from "../../core/errors.js";
import { CLAUDE_SETTINGS, CODEX_SETTINGS, GEMINI_SETTINGS, hookCommand, mergeHooks, type HookSettings } from "../../io/hook-settings.js";
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
  if (existing) throw new CtxinjectError(`${existing} already configures ctxinject; nothing written`);
  const file = join(root, ".ctxinjectrc.yaml");
  await fs.writeFile(file, renderConfigTemplate(), { flag: "wx" });
  ctx.stderr.write(`ctxinject: wrote ${file}\n`);
  return 0;
}

/**
 * The plugin file and `.opencode/package.json`, then opencode's dependencies installed once with npm (online, now)
 * so that opencode's own install at start finds nothing to do and a later offline run does not wait on it.
 */
async function initOpencode(ctx: CliContext, root: string, install: boolean): Promise<number> {
  const plugin = await writeOpencodePlugin(root, ctx.self);
  ctx.stderr.write(`ctxinject: ${plugin ? "wrote" : "unchanged"} ${join(root, OPENCODE_PLUGIN_FILE)}\n`);
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
  const command = hookCommand(host, root, ctx.self, !user);
  const changed = await mergeHooks(file, host, command);
  ctx.stderr.write(`ctxinject: ${changed ? "wrote" : "unchanged"} ${file}: ${HOST_NAMES[host.agent]} runs \`${command}\`\n`);
  // Codex runs a new or changed hook only once the user has trusted it; an untrusted hook is skipped without a word.
  if (host.agent === "codex") ctx.stderr.write("ctxinject: Codex runs new hooks only once trusted: start `codex` and accept \"Hooks need review\" (or /hooks); `codex exec` in automation needs --dangerously-bypass-hook-trust\n");
  return 0;
}
