import { CtxinjectError } from "../../core/errors.js";
import { safeMessage } from "../../core/redact.js";
import { COMMAND_HOOK_HOSTS, HOSTS, hookHost } from "../../hosts/index.js";
import { answerHookEvent, hookHostOf } from "../../integrations/command-hook.js";
import { printWarnings, runOf, writeOut, type CliContext } from "../context.js";

/** What an unknown name is told: the short names, then the profile names that differ (`hook claude-code` works too). */
const expected = () =>
  `${COMMAND_HOOK_HOSTS.map((h) => h.short).join(", ")}; or ${COMMAND_HOOK_HOSTS.filter((h) => h.short !== h.name)
    .map((h) => h.name)
    .join(", ")}`;

/**
 * `ctxinject hook <agent>`: an agent's command hook. Event JSON on stdin, hook JSON on stdout. On any failure of
 * its own it prints one line on stderr and exits 1 — never 2, which would block the prompt. A mistake of the
 * user's (a bad config file) is also told through the host's visible channel, a `systemMessage`, with exit 0:
 * in non-interactive runs stderr and exit 1 are seen only in debug output.
 */
export async function runHook(ctx: CliContext, agent: string): Promise<number> {
  try {
    // `hook claude` and `hook claude-code` are one host.
    const host = hookHost(agent);
    if (!host) throw new Error(`unknown agent "${agent}" (expected: ${expected()})`);
    const raw = await ctx.readStdin();
    if (raw === undefined || raw.trim() === "") throw new Error("no hook event on standard input");
    // Another host running this host's hooks (Copilot CLI runs Claude Code's): its own hook answers it, and this one
    // would claim the same session's rules with an answer that host may not read.
    if (HOSTS.some((h) => h !== host && h.runsHook?.(ctx.env))) return 0;
    let event;
    try {
      event = JSON.parse(raw) as unknown;
    } catch {
      throw new Error("the hook event on standard input is not JSON");
    }
    if (event === null || typeof event !== "object" || Array.isArray(event)) throw new Error("the hook event is not a JSON object");
    const answered = await answerHookEvent(hookHostOf(host), { ...runOf(ctx), ...(ctx.startedAt !== undefined && { startedAt: ctx.startedAt }) }, event);
    try {
      printWarnings(ctx, answered.warnings);
      await writeOut(ctx, answered.answer);
    } catch (error) {
      // An answer that never reached the host gave nothing: the session's next event has it all again.
      await answered.abort();
      throw error;
    }
    await answered.finish();
    return 0;
  } catch (error) {
    // Told to the host and through it to the model (systemMessage): a short excerpt without secrets or hidden text.
    const message = safeMessage(error instanceof Error ? error.message : String(error));
    ctx.stderr.write(`ctxinject hook ${agent}: ${message}\n`);
    if (!(error instanceof CtxinjectError)) return 1;
    const systemMessage = `ctxinject: ${message} (no context was added to this prompt)`;
    await writeOut(ctx, `${JSON.stringify({ systemMessage })}\n`).catch(() => undefined);
    return 0;
  }
}
