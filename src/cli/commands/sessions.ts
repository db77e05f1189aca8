import { SessionStore, stateDir } from "../../io/session/session-store.js";
import { writeOut, type CliContext } from "../context.js";

/** Lists sessions with their pending and injected counts and when each was last used. */
export async function runSessions(ctx: CliContext, flags: { json?: boolean }): Promise<number> {
  const sessions = await new SessionStore(stateDir(ctx.env)).sessions();
  if (flags.json) {
    await writeOut(ctx, `${JSON.stringify({ sessions }, null, 2)}\n`);
    return 0;
  }
  const rows = [["session", "pending", "injected", "updated"], ...sessions.map((s) => [s.id, String(s.pending), String(s.injected), s.updated])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  await writeOut(ctx, rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ")).join("\n") + "\n");
  return 0;
}
