import { collectedOutput } from "../../src/cli/collected-output.js";
import type { CliContext } from "../../src/cli/context.js";
import { main } from "../../src/cli/main.js";
import { BIN, REPO, testEnvironment, type CliResult } from "./cli.js";

/**
 * Runs `main(argv, ctx)` in this process, as bin/ctxinject.js would run it in its own: the same environment runCli
 * gives a spawned CLI (NO_COLOR, the test run's state and config folders, `env` on top), standard input as given
 * ("" as a spawned run's empty pipe; null as a terminal, nothing piped), stdout and stderr collected, the exit code
 * returned. For what maps flags, config and input onto output and exit codes; what the process itself does (its
 * exit, signals, descriptors, the bundle and its start-up, the hook client and server) stays with runCli.
 */
export async function runMain(
  args: string[],
  options: {
    cwd?: string;
    env?: Record<string, string | undefined>;
    input?: string | null;
    platform?: NodeJS.Platform;
    /** When the run started, as a process's start (a hook's deadline counts from it); unset, a hook has none. */
    startedAt?: number;
    /** A stdout of the test's own (one whose writes fail); stdout is then "" in the result. */
    stdout?: CliContext["stdout"];
  } = {},
): Promise<CliResult> {
  // Nothing to reset between runs: what a run saves for speed lives in its own memo (core/run-memo.ts), not in
  // module state (test/unit/core-state.test.ts holds the core to that).
  const input = options.input === undefined ? "" : options.input;
  const output = collectedOutput();
  const ctx: CliContext = {
    cwd: options.cwd ?? REPO,
    env: testEnvironment(options.env),
    stdout: options.stdout ?? output.stdout,
    stderr: output.stderr,
    self: BIN,
    ...(options.platform !== undefined && { platform: options.platform }),
    ...(options.startedAt !== undefined && { startedAt: options.startedAt }),
    readStdin: async () => input ?? undefined,
  };
  const status = await main(args, ctx);
  return { status, ...output.text() };
}
