import { CtxinjectError } from "../../core/errors.js";
import { answerClaudeEvent } from "../../integrations/claude-hook.js";
import { printWarnings, writeOut, type CliContext } from "../context.js";

/**
 * `ctxinject hook claude`: a Claude Code hook. Event JSON on stdin, hook JSON on stdout. On any failure of its
 * own it prints one line on stderr and exits 1 — never 2, which would block the prompt. A mistake of the user's
 * (a bad config file) is also told through Claude Code's visible channel, a `systemMessage`, with exit 0: in `-p`
 * mode stderr and exit 1 are seen only with --debug.
 */
export async function runHook(ctx: CliContext, agent: string): Promise<number> {
  try {
    if (agent !== "claude") throw new Error(`unknown agent "${agent}" (expected: claude)`);
    const raw = await ctx.readStdin();
    if (raw === undefined || raw.trim() === "") throw new Error("no hook event on standard input");
    let event;
    try {
      event = JSON.parse(raw) as unknown;
    } catch {
      throw new Error("the hook event on standard input is not JSON");
    }
    if (event === null || typeof event !== "object" || Array.isArray(event)) throw new Error("the hook event is not a JSON object");
    const { answer, warnings } = await answerClaudeEvent({ cwd: ctx.cwd, env: ctx.env }, event);
    printWarnings(ctx, warnings);
    await writeOut(ctx, answer);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.stderr.write(`ctxinject hook ${agent}: ${message}\n`);
    if (!(error instanceof CtxinjectError)) return 1;
    const systemMessage = `ctxinject: ${message} (no context was added to this prompt)`;
    await writeOut(ctx, `${JSON.stringify({ systemMessage })}\n`).catch(() => undefined);
    return 0;
  }
}
