import { Command, CommanderError } from "commander";
import type { CliContext } from "./context.js";
import { addSelectionOptions } from "./options.js";


/**
 * The command tree. Each command's module is imported only when that command runs, so `--help` and
 * `--version` load nothing else. The action stores its exit code in `result`.
 */
export function createProgram(ctx: CliContext, version: string, result: { code: number }): Command {
  const program = new Command("ctxinject")
    .description("Gather the instructions a repository keeps for AI coding agents, pick what applies, print one block.")
    .version(version, "-V, --version")
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
    })
    .showHelpAfterError("(run ctxinject --help for usage)");

  addSelectionOptions(program.command("build").description("print the merged context for the targets"))
    .option("--no-provenance", "markdown without the comment that names each entry's file")
    .option("--no-passthrough", "with a prompt, print the block alone (not the block, the separator and the prompt)")
    .action(async (flags) => {
      const { runBuild } = await import("./commands/build.js");
      result.code = await runBuild(ctx, flags);
    });

  addSelectionOptions(program.command("explain").description("show every candidate, included or not, and why"))
    .option("--json", "print the trace as JSON")
    .action(async (flags) => {
      const { runExplain } = await import("./commands/explain.js");
      result.code = await runExplain(ctx, flags);
    });

  program
    .command("init")
    .description("write a commented .ctxinjectrc.yaml at the project root")
    .option("--root <dir>", "project root")
    .action(async (flags) => {
      const { runInit } = await import("./commands/init.js");
      result.code = await runInit(ctx, flags);
    });

  return program;
}

export function exitCodeOf(error: CommanderError): number {
  return error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help" ? 0 : 2;
}

