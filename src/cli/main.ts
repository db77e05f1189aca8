import { readFileSync } from "node:fs";
import { CommanderError } from "commander";
import { CtxinjectError } from "../core/errors.js";
import { safeMessage } from "../core/redact.js";
import type { CliContext } from "./context.js";
import { exitWith, processContext } from "./process-context.js";
import { runHook } from "./commands/hook.js";
import { serveHooks } from "./hook-transport/server.js";
import { createProgram, exitCodeOf } from "./program.js";

/** Exit code for a failure of ctxinject itself (1 is kept for `--check` finding a stale file). */
export const EXIT_INTERNAL = 70;

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

/** Runs one command line; returns the exit code. The only place that decides it. */
export async function main(argv: string[], ctx: CliContext): Promise<number> {
  // A host runs `ctxinject hook claude` on every prompt and tool call: no command tree, no package.json read.
  if (argv.length === 2 && argv[0] === "hook" && /^[a-z]+$/.test(argv[1]!)) return runHook(ctx, argv[1]!);
  const result = { code: 0 };
  // The version is read from package.json only where it is printed (--version, mcp, doctor --format sarif).
  const version = argv.includes("-V") || argv.includes("--version") || argv[0] === "mcp" || argv[0] === "doctor" ? packageVersion() : "";
  const program = createProgram(ctx, version, result, argv[0]);
  if (argv.length === 0) {
    ctx.stderr.write(program.helpInformation());
    return 2;
  }
  try {
    await program.parseAsync(argv, { from: "user" });
    return result.code;
  } catch (error) {
    if (error instanceof CommanderError) return exitCodeOf(error);
    if (error instanceof CtxinjectError) {
      // An error may quote a file of the repository (a config's value): never a secret, never all of it.
      ctx.stderr.write(`ctxinject: ${safeMessage(error.message)}\n`);
      return error.exitCode;
    }
    const verbose = ctx.env.CTXINJECT_DEBUG !== undefined;
    const message = error instanceof Error ? (verbose ? (error.stack ?? error.message) : error.message) : String(error);
    ctx.stderr.write(`ctxinject: internal error: ${verbose ? message : safeMessage(message)}\n${verbose ? "" : "(set CTXINJECT_DEBUG=1 for the stack)\n"}`);
    return EXIT_INTERNAL;
  }
}

export async function run(): Promise<void> {
  // Started by a hook (src/cli/hook-transport/client.ts), not by users: serves hooks until idle, then ends.
  if (process.argv[2] === "--hook-server" && process.argv.length === 4) return serveHooks(process.argv[3]!, main);
  const ctx = processContext();
  exitWith(ctx, await main(process.argv.slice(2), ctx));
}
