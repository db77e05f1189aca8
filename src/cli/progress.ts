import type { CliContext } from "./context.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * A spinner on stderr for a run that takes longer than `delayMs`, only on a terminal and never under CI or
 * NO_COLOR-style dumb terminals; returns the function that stops it and clears its line.
 */
export function startProgress(ctx: CliContext, label: string, delayMs = 500): () => void {
  if (ctx.stderr.isTTY !== true || ctx.env.CI || ctx.env.TERM === "dumb") return () => {};
  // The spinner's own controls (a carriage return, the line erase) are no data: they pass the sink unescaped.
  const control = (chunk: string) => (ctx.stderr.control !== undefined ? ctx.stderr.control(chunk) : ctx.stderr.write(chunk));
  let frame = 0;
  let interval: ReturnType<typeof setInterval> | undefined;
  const timer = setTimeout(() => {
    interval = setInterval(() => control(`\r${FRAMES[frame++ % FRAMES.length]} ${label}`), 80);
    interval.unref?.();
  }, delayMs);
  timer.unref?.();
  return () => {
    clearTimeout(timer);
    if (interval !== undefined) {
      clearInterval(interval);
      control("\r\u001b[K");
    }
  };
}
