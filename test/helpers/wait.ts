/**
 * Resolves once `done()` holds (a file another process writes, a request a server records), looking every 20 ms;
 * throws after `ms`, naming `what` (a function: worked out then, to say what the other side said so far). For what
 * a test waits on: never a fixed sleep, whose length a loaded machine outlasts.
 */
export async function until(done: () => boolean, what: string | (() => string), ms = 30_000): Promise<void> {
  const give = Date.now() + ms;
  while (!done()) {
    if (Date.now() > give) throw new Error(`waited ${ms} ms for ${typeof what === "string" ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
