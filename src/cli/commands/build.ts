import { SEPARATOR } from "../../core/collector.js";
import { CtxinjectError, usageError } from "../../core/errors.js";
import { loadConfig } from "../../io/config/config.js";
import { findRoot } from "../../io/config/root.js";
import { watchTree } from "../../io/tree-watcher.js";
import { diffSummary, writeIfChanged } from "../../io/fs/out-file.js";
import { outFile, readTarget, type WriteTarget } from "../../io/fs/confine.js";
import { runOf, writeOut, type CliContext } from "../context.js";
import type { SelectionFlags } from "../options.js";
import { pipelineFromFlags } from "../pipeline-from-flags.js";

export interface BuildFlags extends SelectionFlags {
  passthrough?: boolean;
  out?: string;
  check?: boolean;
  watch?: boolean;
}

/**
 * Prints the context block. Given a prompt (filter mode) it prints the block, the separator, then the prompt
 * byte for byte, so `… | ctxinject build | agent-cli` hands the agent both; json output never carries the prompt.
 * With --session, the session's pending entries are consumed only once the output is written.
 */
export async function runBuild(ctx: CliContext, flags: BuildFlags): Promise<number> {
  if (flags.check && flags.out === undefined) throw usageError("--check needs --out FILE: the file to compare with");
  if (flags.out !== undefined && flags.session !== undefined)
    throw usageError("--out and --session do not go together: a generated file is not a session's injection");
  if (flags.as !== undefined && flags.session !== undefined)
    throw usageError("--as and --session do not go together: --as shows what an agent loads by itself, not what a session is given");
  if (flags.watch) return watchGenerated(ctx, flags);
  const selected = await pipelineFromFlags(ctx, flags, "build");
  if (flags.out !== undefined) return writeGenerated(ctx, outFile(selected.root, ctx.cwd, flags.out), flags.out, selected.output, flags.check === true);
  const { output, prompt, format } = selected;
  // An empty block says nothing by itself: say what it means.
  if (flags.as !== undefined && output.trim() === "")
    ctx.stderr.write(
      `ctxinject: ${flags.as} loads none of these instruction files by itself here (build --as prints only what the agent loads on its own; build without --as prints what ctxinject gives it)\n`,
    );
  let text = output;
  if (prompt !== undefined && flags.passthrough !== false && format !== "json") {
    const block = output.replace(/\n+$/, "");
    text = block === "" ? prompt : `${block}${SEPARATOR}${prompt}`;
  }
  try {
    await writeOut(ctx, text);
  } catch (error) {
    await selected.abort();
    throw error;
  }
  await selected.finish();
  return 0;
}

/**
 * --out FILE --watch: builds once watching has begun, then rebuilds whenever an instruction file, the config, a .gitignore or git's index
 * changes (a burst of changes is one rebuild), writing only when the output changed. A build that fails (a config
 * error) leaves the file as it was and says so; the watch goes on. Ends on SIGINT or SIGTERM.
 */
async function watchGenerated(ctx: CliContext, flags: BuildFlags): Promise<number> {
  if (flags.out === undefined) throw usageError("--watch needs --out FILE: the file to keep current");
  if (flags.check) throw usageError("--watch and --check do not go together: --check compares once");
  const out = flags.out;
  let current: BuildFlags = flags;
  const once = async () => {
    try {
      const selected = await pipelineFromFlags(ctx, current, "build");
      // A piped prompt is read once: later builds use it as it was.
      if (selected.prompt !== undefined) current = { ...current, prompt: selected.prompt };
      writeGenerated(ctx, outFile(selected.root, ctx.cwd, out), out, selected.output, false);
    } catch (error) {
      if (!(error instanceof CtxinjectError)) throw error;
      ctx.stderr.write(`ctxinject: ${error.message}; ${out} keeps its last good content\n`);
    }
  };
  const base = findRoot(ctx.cwd, flags.root).root;
  const { config } = await loadConfig(base, ctx.env, runOf(ctx).platform);
  let running: Promise<void> | null = null;
  let again = false;
  const rebuild = () => {
    if (running) return void (again = true);
    running = once().finally(() => {
      running = null;
      if (again) {
        again = false;
        rebuild();
      }
    });
  };
  // Watching starts before the first build and the first build waits for chokidar's scan: a change made while
  // the first build reads is rebuilt, and none is missed between the two.
  const watcher = watchTree(base, config, rebuild);
  await watcher.ready;
  rebuild();
  await running;
  ctx.stderr.write(`ctxinject: watching ${base} for changes to the instruction files (Ctrl-C ends)\n`);
  await new Promise<void>((done) => {
    const stop = () => done();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await watcher.close();
  await running;
  return 0;
}

/** --out: the block alone, written atomically and only when it changed; --check compares without writing. */
function writeGenerated(ctx: CliContext, path: WriteTarget, shown: string, output: string, check: boolean): number {
  if (check) {
    const current = readTarget(path);
    if (current === output) return 0;
    ctx.stderr.write(`ctxinject: ${shown} is stale: ${diffSummary(current, output)}; run ctxinject build with the same flags and --out ${shown}\n`);
    return 1;
  }
  const changed = writeIfChanged(path, output);
  ctx.stderr.write(`ctxinject: ${changed ? "wrote" : "unchanged"} ${shown}\n`);
  return 0;
}
