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

export const CONFIG_TEMPLATE = `# ctxinject configuration for this repository. Every key is optional; the values shown commented out are the defaults.
# Where settings come from, later winning: defaults < your own config < this file < flags on the command line.
# Your own config is $XDG_CONFIG_HOME/ctxinject/config.json or config.yaml (~/.config/ctxinject without
# XDG_CONFIG_HOME; ~/Library/Application Support/ctxinject on macOS, %APPDATA%\\ctxinject on Windows).
# A repository is untrusted: allowOutside, hiddenCharacters: keep, redact: false and a hookDeadlineMs above 1500
# are taken from your own config only, and ignored here with a warning. \`ctxinject explain\` shows
# where each setting came from. This file is data: nothing in it runs (a .js/.mjs/.cjs config runs only after
# \`ctxinject trust\`).

# Output format: markdown | xml | compact | json
# format: markdown

# Turn a source off, or change its default priority (critical | high | normal | low).
sources:
  rules-injector: { enabled: true, priority: normal }
  directory-agents: { enabled: true, priority: normal }
  directory-readme: { enabled: true, priority: low }
  # custom: { priority: normal }

# Extra rules folders, read like .cursor/rules at the root and in every folder above a target.
rules:
  dirs: []

# Agent instruction files read from the root down to each target (AGENTS.override.md replaces AGENTS.md).
agents:
  files: [AGENTS.md]        # e.g. [AGENTS.md, CLAUDE.md, GEMINI.md]
  skipRoot: false           # true when the agent already loads the root file itself

# Entries of your own, always included.
custom: []
#  - id: house-style
#    content: "Answer in British English."
#    priority: high
#  - id: glossary
#    file: docs/glossary.md

# Paths that are never a source (globs, relative to the root).
ignore: []
#  - "legacy/**"

# Invisible characters in instruction files (tag characters, bidirectional overrides, zero-width spaces inside
# words) are removed from the output with a warning naming the file; keep passes them on as they are.
# hiddenCharacters: strip       (keep: from your own config only)

# Credentials (tokens, keys, passwords) are replaced by [REDACTED:kind] (false: from your own config only).
# redact: true

# Folders outside the project that symlinks in it may lead to (from your own config only).
# allowOutside: []

# Token budget and how tokens are counted (approx | o200k | cl100k); threshold for description-only rules.
# The budget's default is for targeted builds; --all has none and a hook keeps its host's cap unless it is set here.
# maxTokens: 8000
# tokenizer: approx
# minRelevance: 0.25

# Keyword modes: change, disable or add one (pattern is a case-insensitive regular expression). Only ultrawork/ulw
# is on by default; name search or analyze here to turn it on.
keywords: {}
#  search: {}
#  review: { pattern: "\\breview (this|my) pr\\b", content: "Review like a maintainer.", priority: high }

# A hook (ctxinject hook claude|codex|gemini) answers within this long, or adds nothing: it never holds the host up.
# hookDeadlineMs: 1500       (above 1500: from your own config only)

# ctxinject doctor reports an AGENTS.md / CLAUDE.md / GEMINI.md chain longer than this many tokens.
# doctor: { maxChainTokens: 8000 }

# Sessions unused this long are removed.
sessions: { maxAgeHours: 168 }

# ctxinject hook claude: also inject what Claude Code loads itself (CLAUDE.md, AGENTS.md where it has no CLAUDE.md,
# .claude/rules)?
claude: { includeNative: false, maxChars: 9500 }
`;

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
  await fs.writeFile(file, CONFIG_TEMPLATE, { flag: "wx" });
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
