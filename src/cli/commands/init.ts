import { installPreCommitHook } from "../../io/git/git-hook.js";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { CtxinjectError } from "../../core/errors.js";
import { hookCommand, mergeHooks, ourHook, userSettingsPath } from "../../io/host-setup/hook-settings.js";
import { HOST_CONFIG, HOSTS, INIT_FLAGS } from "../../hosts/index.js";
import { writeClinePlugin } from "../../io/host-setup/cline-setup.js";
import type { CommandHookHost, Host, PluginInstall } from "../../hosts/host.js";
import { configFileIn } from "../../io/config/config.js";
import { lazyRequire } from "../../io/lazy-node.js";
import { npmInstall, npmInstallRefusal } from "../../io/host-setup/npm-install.js";
import { pluginDependenciesMissing, writePluginLoader, writePluginPackage } from "../../io/host-setup/opencode-setup.js";
import { realOrSelf } from "../../io/fs/paths.js";
import { findRoot } from "../../io/config/root.js";
import { runOf, type CliContext } from "../context.js";
import { renderConfigTemplate } from "../../core/config-docs.js";
import { projectFile, readTarget, userFile, writeTarget } from "../../io/fs/confine.js";

export const DEFAULT_GENERATED = ".context/AGENTS.generated.md";

export interface InitFlags {
  root?: string;
  gitHook?: boolean;
  out?: string;
  user?: boolean;
  /** false with --no-install: --opencode (--kilo) does not run npm in .opencode (.kilo). */
  install?: boolean;
  /** `--<host>` (its short name, or its profile name: --claude-code), in commander's camelCase. */
  [host: string]: string | boolean | undefined;
}

/** commander's key for `--<name>`: --claude-code → claudeCode. */
const flagKey = (flag: string) => flag.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The host `init --<host>` names (the first in HOSTS' order), if any. */
const hostOf = (flags: InitFlags): Host | undefined => INIT_FLAGS.find(({ flag }) => flags[flagKey(flag)] === true)?.host;

export async function runInit(ctx: CliContext, flags: InitFlags): Promise<number> {
  const { root } = findRoot(ctx.cwd, flags.root);
  const host = hostOf(flags);
  if (host && "settings" in host.install) return initHooks(ctx, root, host as CommandHookHost, flags.user === true);
  if (host && "plugin" in host.install) return initPlugin(ctx, root, host, host.install.plugin, flags);
  if (host && "pluginFile" in host.install) return initCline(ctx, root, host.install.pluginFile.file, flags.user === true);
  if (flags.gitHook) {
    const hook = installPreCommitHook(root, flags.out ?? DEFAULT_GENERATED, ctx.env);
    ctx.stderr.write(`ctxinject: pre-commit hook ${hook} now regenerates and stages ${flags.out ?? DEFAULT_GENERATED}\n`);
    return 0;
  }
  const existing = configFileIn(root);
  if (existing) ctx.stderr.write(`ctxinject: ${existing} already configures ctxinject; nothing written\n`);
  else {
    const file = join(root, ".ctxinjectrc.yaml");
    writeTarget(projectFile(root, ".ctxinjectrc.yaml"), renderConfigTemplate(HOST_CONFIG), { create: true });
    ctx.stderr.write(`ctxinject: wrote ${file}\n`);
  }
  sayWhatToInstall(ctx, root);
  return 0;
}

/** Agents with no hook to install: their files are read like any other source, and `ctxinject mcp` serves them. */
const READ_ONLY: ReadonlyArray<{ name: string; markers: readonly string[] }> = [
  { name: "Cursor", markers: [".cursor/", ".cursorrules"] },
  { name: "GitHub Copilot in the IDE", markers: [".github/copilot-instructions.md", ".github/instructions/"] },
  { name: "Windsurf", markers: [".windsurf/", ".windsurfrules"] },
];

const present = (root: string, markers: readonly string[]) => markers.filter((marker) => existsSync(join(root, marker)));

/**
 * `init` without an agent: which agents the repository is set up for (their files at the root) and what
 * `init --<agent>` would install for each, with the command it would write; nothing is installed.
 */
function sayWhatToInstall(ctx: CliContext, root: string): void {
  const lines: string[] = [];
  for (const host of HOSTS) {
    const found = present(root, host.markers);
    if (found.length === 0) continue;
    const seen = `${host.label} (${found.join(", ")})`;
    const flag = `--${host.short}`;
    if ("pluginFile" in host.install) {
      const { file, writes } = host.install.pluginFile;
      const done = existsSync(join(root, file));
      lines.push(`  ${seen}: ${done ? `installed (${file})` : `\`ctxinject init ${flag}\` would write ${writes}`}`);
      continue;
    }
    if ("plugin" in host.install) {
      const { folder, file } = host.install.plugin;
      const loader = `${folder}/${file}`;
      const done = existsSync(join(root, loader));
      lines.push(`  ${seen}: ${done ? `installed (${loader})` : `\`ctxinject init ${flag}\` would write ${loader} and ${folder}/package.json`}`);
      continue;
    }
    const settings = host.install.settings.project;
    if (hasOurHook(root, settings, host.short)) {
      lines.push(`  ${seen}: installed (${settings}); \`ctxinject init ${flag}\` again refreshes it`);
      continue;
    }
    const { command, why } = hookCommand(host as CommandHookHost, root, ctx.self, true, runOf(ctx).platform);
    lines.push(`  ${seen}: \`ctxinject init ${flag}\` would merge hooks running \`${command}\` into ${settings} (${why})`);
  }
  const others = READ_ONLY.map((agent) => ({ agent, found: present(root, agent.markers) })).filter(({ found }) => found.length > 0);
  for (const { agent, found } of others)
    lines.push(`  ${agent.name} (${found.join(", ")}): no hook to install; \`ctxinject mcp\` serves its context on demand`);
  if (lines.length === 0) {
    const flags = HOSTS.map((h) => `--${h.short}`);
    ctx.stderr.write(
      `ctxinject: no agent is set up in ${root} yet (no ${HOSTS.flatMap((h) => h.markers).join(", ")}); \`ctxinject init ${flags[0]}\`, ${flags.slice(1, -1).join(", ")} or ${flags.at(-1)} installs into one\n`,
    );
    return;
  }
  ctx.stderr.write(`ctxinject: this repository is set up for these agents (nothing installed now):\n${lines.join("\n")}\n`);
}

/** Whether a host's settings file names ctxinject's hook (the repository's file, read as init would; unreadable: no). */
function hasOurHook(root: string, file: string, short: string): boolean {
  try {
    return ourHook(short).test(readTarget(projectFile(root, file)) ?? "");
  } catch {
    return false;
  }
}

/**
 * The plugin loader and `package.json` in the host's config folder (the project's, or with --user the user's),
 * then the host's plugin package installed there once with npm (online, now) so that the host's own install at
 * start finds nothing to do and a later offline run does not wait on it.
 */
function initPlugin(ctx: CliContext, root: string, host: Host, install: PluginInstall, flags: InitFlags): number {
  let dir = join(root, install.folder);
  let shown = install.folder;
  // The project's folder is the repository's: a link on the way (`.opencode -> ~/.config/opencode`) is refused.
  let fileIn = (name: string) => projectFile(root, `${install.folder}/${name}`);
  if (flags.user === true) {
    if (install.user === undefined)
      throw new CtxinjectError(`--user: ${host.label} has no user plugin folder ctxinject knows; run \`ctxinject init --${host.short}\` in the project`);
    const config = ctx.env.XDG_CONFIG_HOME || (ctx.env.HOME && join(ctx.env.HOME, ".config"));
    if (!config) throw new CtxinjectError(`--user needs HOME (or XDG_CONFIG_HOME) to find ${host.label}'s config folder`);
    dir = join(config, install.user);
    shown = dir;
    fileIn = (name: string) => userFile(join(dir, name));
  }
  // The user's loader runs in every project: it loads this ctxinject's plugin module, found nowhere a project answers.
  // (A project's folder linked out of the project never gets here: its write is refused, io/fs/confine.ts.)
  const pinned =
    flags.user === true
      ? lazyRequire<typeof import("node:url")>("node:url").pathToFileURL(
          join(dirname(dirname(realOrSelf(ctx.self))), "dist/integrations", `${install.entry}.js`),
        ).href
      : undefined;
  const plugin = writePluginLoader(fileIn, install, pinned);
  const local = existsSync(join(root, "node_modules/ctxinject/package.json"));
  const where = pinned !== undefined ? pinned : `the project's ctxinject (${local ? "installed" : "not installed yet"}), else the one on PATH`;
  ctx.stderr.write(`ctxinject: ${plugin ? "wrote" : "unchanged"} ${join(dir, install.file)}: it loads ${where}\n`);
  const manifest = writePluginPackage(fileIn, install);
  ctx.stderr.write(`ctxinject: ${manifest ? "wrote" : "unchanged"} ${join(dir, "package.json")}\n`);
  const missing = pluginDependenciesMissing(dir, fileIn, shown);
  if (missing === null) return 0;
  const command = `npm install --prefix ${shown} --ignore-scripts --no-audit --no-fund`;
  if (flags.install === false) {
    ctx.stderr.write(`ctxinject: ${missing} not there yet: ${host.label} installs it at its next start (online), or run \`${command}\` now\n`);
    return 0;
  }
  // The user's own folder is theirs to configure; a project's is the repository's, and init runs none of its code.
  const refused = flags.user === true ? null : npmInstallRefusal(dir, shown, root);
  if (refused !== null) {
    ctx.stderr.write(
      `ctxinject: warning: npm not run: ${refused}, and init runs no repository code: read it, then run \`${command}\` yourself if you trust it\n`,
    );
    return 0;
  }
  const npm = npmInstall(dir, ctx.env, runOf(ctx).platform);
  if (npm.ok) {
    ctx.stderr.write(`ctxinject: installed ${host.label}'s plugin package into ${shown} (${host.label} starts without the network)\n`);
    return 0;
  }
  ctx.stderr.write(`ctxinject: warning: \`${command}\` failed (${npm.error}); ${host.label} installs it at its next start when online\n`);
  return 0;
}

/**
 * Cline's plugin file: the project's (`.cline/plugins`), or with --user the user's (`$CLINE_DIR/plugins`, else
 * `~/.cline/plugins`), the same portable loader either way.
 */
function initCline(ctx: CliContext, root: string, projectPath: string, user: boolean): number {
  const home = ctx.env.HOME;
  if (user && !home && !ctx.env.CLINE_DIR) throw new CtxinjectError("--user needs HOME (or CLINE_DIR) to find ~/.cline/plugins");
  const file = user ? join(ctx.env.CLINE_DIR || join(home!, ".cline"), "plugins/ctxinject.js") : join(root, projectPath);
  // The user's plugin runs in every workspace: it names this ctxinject, never one a workspace holds.
  const pinned = user ? realOrSelf(ctx.self) : undefined;
  const changed = writeClinePlugin(user ? userFile(file) : projectFile(root, projectPath), pinned);
  const local = existsSync(join(root, "node_modules/ctxinject/package.json"));
  const from = pinned !== undefined ? pinned : `the project's ctxinject (${local ? "installed" : "not installed yet"}), else the one on PATH`;
  ctx.stderr.write(`ctxinject: ${changed ? "wrote" : "unchanged"} ${file}: Cline runs \`ctxinject hook cline\` through it, from ${from}\n`);
  return 0;
}

/** A host's command hooks merged into its project (or, with --user, its user) settings. */
function initHooks(ctx: CliContext, root: string, host: CommandHookHost, user: boolean): number {
  const { settings, note } = host.install;
  const userPath = user ? userSettingsPath(settings, ctx.env) : null;
  if (user && userPath === null) throw new CtxinjectError(`--user needs HOME to find ~/${settings.user}`);
  const file = userPath ?? join(root, settings.project);
  // A project's settings file that a link puts outside the project is refused (io/fs/confine.ts); --user's is the user's own.
  const { command, why } = hookCommand(host, root, ctx.self, !user, runOf(ctx).platform);
  const changed = mergeHooks(user ? userFile(file) : projectFile(root, settings.project), host, command);
  ctx.stderr.write(`ctxinject: ${changed ? "wrote" : "unchanged"} ${file}: ${host.label} runs \`${command}\` (${why})\n`);
  if (note !== undefined) ctx.stderr.write(`ctxinject: ${note}\n`);
  return 0;
}
