import { Command, type CommanderError, InvalidArgumentError, Option } from "commander";
import { FORMATS, PRIORITIES, type Format } from "../core/types.js";
import { runBuild } from "./commands/build.js";
import { runExplain } from "./commands/explain.js";
import { runRegister } from "./commands/register.js";
import { runPending } from "./commands/pending.js";
import { runConsume } from "./commands/consume.js";
import { runClear } from "./commands/clear.js";
import { runSessions } from "./commands/sessions.js";
import { runHook } from "./commands/hook.js";
import type { DoctorFlags } from "./commands/doctor.js";
import { agentName, AGENT_NAMES_ACCEPTED, COMMAND_HOOK_HOSTS, HOSTS, INIT_FLAGS } from "../hosts/index.js";
import { runCoverage, runDoctor, runInit, runMcp, runTrust } from "./commands/occasional.js";
import { SEVERITIES } from "../core/doctor/finding.js";
import type { CliContext } from "./context.js";
import { addSelectionOptions, COVERAGE_FORMATS, DOCTOR_FORMATS } from "./options.js";

/**
 * The command tree. The commands a prompt runs are imported statically: in the bundle one file loads faster than a
 * chunk per command (measured by npm run bench). The occasional ones (init, doctor, coverage, mcp, trust) come
 * through commands/occasional.ts, a bundle of their own loaded when one runs. What is heavy — the BPE tables, the
 * tree walker, the config loader — stays behind lazy requires where it is used. The action stores its exit code.
 */
/** `command`: the first word of the command line; when it names a command, only that one is defined. */
export function createProgram(ctx: CliContext, version: string, result: { code: number }, command?: string): Command {
  const program = new Command("ctxinject")
    .description("Gather the instructions a repository keeps for AI coding agents, pick what applies, print one block.")
    .version(version, "-V, --version")
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
    })
    .showHelpAfterError("(run ctxinject --help for usage)");
  // Every action runs its command with the context and keeps the exit code it returns.
  const run =
    <A extends unknown[]>(command: (ctx: CliContext, ...args: A) => Promise<number>) =>
    async (...args: A) => {
      result.code = await command(ctx, ...args);
    };

  const priority = () => new Option("--priority <priority>", "critical, high, normal or low").choices(PRIORITIES);
  const format = () => new Option("--format <format>", "output format").choices(FORMATS);
  // An agent by its name or short name (claude = claude-code): the commands see the profile's name only.
  const asAgent = (description: string) =>
    new Option("--as <agent>", description).choices(AGENT_NAMES_ACCEPTED).argParser((value: string) => {
      const name = agentName(value);
      if (name === undefined) throw new InvalidArgumentError(`Allowed choices are ${AGENT_NAMES_ACCEPTED.join(", ")}.`);
      return name;
    });
  const queue = (name: string, description: string, command: (ctx: CliContext, flags: { session: string; format?: Format }) => Promise<number>) => () =>
    program.command(name).description(description).requiredOption("--session <id>", "session id").addOption(format()).action(run(command));

  const commands: Record<string, () => void> = {
    build: () =>
      addSelectionOptions(program.command("build").description("print the merged context for the targets"))
        .option("--no-provenance", "markdown without the comment that names each entry's file")
        .option("--no-passthrough", "with a prompt, print the block alone (not the block, the separator and the prompt)")
        .option("--out <file>", "write the block to FILE (atomically, only when it changed) instead of stdout")
        .option("--check", "with --out: write nothing; exit 1 when FILE is not what build would write")
        .option("--watch", "with --out: rebuild whenever an instruction file, the config or .gitignore changes, until Ctrl-C")
        .addOption(asAgent("build what that agent loads by itself (its own loader, from its profile) instead"))
        .action(run(runBuild)),
    explain: () =>
      addSelectionOptions(program.command("explain").description("show every candidate, included or not, and why"))
        .option("--json", "print the trace as JSON")
        .addOption(asAgent("also show what that agent loads by itself (its own loader, from its profile)"))
        .action(run(runExplain)),
    register: () =>
      program
        .command("register")
        .description("add an entry to a session (content from --content or standard input)")
        .requiredOption("--session <id>", "session id")
        .requiredOption("--source <name>", "who registers it, e.g. git-hook")
        .requiredOption("--id <id>", "entry id; the same source and id replace the entry")
        .addOption(priority())
        .option("--content <text>", "the entry's text")
        .action(run(runRegister)),
    pending: queue("pending", "print a session's pending entries without consuming them", runPending),
    consume: queue("consume", "print a session's pending entries and clear them (each entry exactly once)", runConsume),
    clear: () =>
      program
        .command("clear")
        .description("forget a session, or every session with --all")
        .option("--session <id>", "session id")
        .option("--all", "every session")
        .action(run(runClear)),
    sessions: () =>
      program.command("sessions").description("list sessions with their pending and injected counts").option("--json", "print JSON").action(run(runSessions)),
    hook: () =>
      program
        .command("hook")
        .description("run as an agent's command hook: reads the event JSON on stdin, prints the hook answer")
        .argument("<agent>", orList(COMMAND_HOOK_HOSTS.map((h) => (h.short === h.name ? h.short : `${h.short} (${h.name})`))))
        .action(run(runHook)),
    doctor: () =>
      program
        .command("doctor")
        .description("report what silently goes wrong in the instruction files, for which agent (exit 1 at --fail-on)")
        .option("--root <dir>", "project root")
        .option("--json", "print the findings as JSON (the same as --format json)")
        .addOption(
          new Option("--format <format>", "text; json; sarif (SARIF 2.1.0 for GitHub code scanning); github (workflow annotations on the lines)").choices([
            ...DOCTOR_FORMATS,
          ]),
        )
        .addOption(
          new Option("--fail-on <severity>", "exit 1 when a finding is at or above this severity (none: never)")
            .choices([...SEVERITIES, "none"])
            .default("error"),
        )
        .action(run((c: CliContext, flags: DoctorFlags) => runDoctor(c, flags, version))),
    coverage: () =>
      program
        .command("coverage")
        .description("for every folder and agent: what it loads itself, what ctxinject adds, the tokens and the findings there")
        .option("--root <dir>", "project root")
        .option("--as <agents>", "only these agents, comma-separated (default: every agent)")
        .addOption(new Option("--format <format>", "markdown (a PR comment); json (the model); html (one self-contained file)").choices([...COVERAGE_FORMATS]))
        .option("--out <file>", "write to FILE (only when it changed) instead of stdout")
        .option("--base <ref>", "also what changes between REF and the working tree")
        .action(run(runCoverage)),
    mcp: () =>
      program
        .command("mcp")
        .description("serve context on demand over the Model Context Protocol (stdio): get_context, explain, list_rules, read_rule, rule resources")
        .option("--root <dir>", "project root")
        .action(run((c: CliContext, flags: { root?: string }) => runMcp(c, flags, version))),
    trust: () =>
      program
        .command("trust")
        .description("let the project's JavaScript config run on this machine, as it is now (--revoke forgets it)")
        .option("--root <dir>", "project root")
        .option("--revoke", "forget the trust")
        .action(run(runTrust)),
    init: () => {
      const hooked = HOSTS.filter((h) => "settings" in h.install);
      const init = program
        .command("init")
        .description(
          `write a commented .ctxinjectrc.yaml at the project root (--git-hook: a pre-commit hook; ${HOSTS.map((h) => `--${h.short}`).join(", ")}: install into that agent)`,
        )
        .option("--root <dir>", "project root")
        .option("--git-hook", "install a pre-commit hook that regenerates and stages the generated context file")
        .option("--out <file>", "with --git-hook: the file to generate (default .context/AGENTS.generated.md)");
      for (const h of hooked)
        if ("settings" in h.install) init.option(`--${h.short}`, `merge ctxinject's hooks into the project's ${h.install.settings.project}`);
      const userToo = HOSTS.filter((h) => "settings" in h.install || "pluginFile" in h.install || ("plugin" in h.install && h.install.plugin.user));
      init.option("--user", `with ${orList(userToo.map((h) => `--${h.short}`))}: into the user's settings in HOME (every project)`);
      for (const h of HOSTS)
        if ("plugin" in h.install)
          init.option(
            `--${h.short}`,
            `write ${h.install.plugin.folder}/${h.install.plugin.file} and its package.json, and install ${h.label}'s plugin package`,
          );
      for (const h of HOSTS)
        if ("pluginFile" in h.install)
          init.option(`--${h.short}`, `write ${h.install.pluginFile.writes}, through which ${h.label} runs \`ctxinject hook ${h.short}\``);
      init.option(
        "--no-install",
        `with ${orList(HOSTS.filter((h) => "plugin" in h.install).map((h) => `--${h.short}`))}: do not run npm in the host's config folder`,
      );
      // A host's profile name works as its flag too (--claude-code = --claude).
      for (const { flag, host, hidden } of INIT_FLAGS) if (hidden) init.addOption(new Option(flag, `the same as --${host.short}`).hideHelp());
      // runInit takes a host by either flag.
      init.action(run(runInit));
    },
  };
  // A command line that names a command needs only that one: the others' options cost start-up on every build.
  // Anything else (help, a typo, options first) gets the whole tree, so help and suggestions list every command.
  const named = Object.hasOwn(commands, command ?? "") ? command! : undefined;
  for (const [name, define] of Object.entries(commands)) if (named === undefined || named === name) define();

  return program;
}

/** "a, b or c". */
const orList = (items: readonly string[]) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`);

export function exitCodeOf(error: CommanderError): number {
  return error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help" ? 0 : 2;
}
