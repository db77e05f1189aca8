// A worker process for the session-store tests: it uses the built store the CLI uses, and prints "ready" first.
//   register <dir> <session> <prefix> <count>   registers count entries, printing "ok <id>" after each
//   claim-and-hang <dir> <session>               claims everything, prints "claimed N", then waits to be killed
//   consume <dir> <session>                      claims, prints "got <id>" per entry, commits, prints "committed"
import { SessionStore } from "../../dist/io/session/session-store.js";

const [mode, dir, session, prefix, count] = process.argv.slice(2);
const store = new SessionStore(dir);
// The tests time their kill -9 from this line, so that a slow start on a busy machine does not use up the delay.
process.stdout.write("ready\n");
if (mode === "register") {
  for (let i = 0; i < Number(count); i++) {
    const id = `${prefix}-${i}`;
    await store.register(session, { source: "worker", id, content: `content of ${id} `.repeat(20) });
    process.stdout.write(`ok ${id}\n`);
  }
} else if (mode === "consume") {
  // As the CLI does: commit only once the output is handed to the OS. A pipe write can be queued, and a consumer
  // killed after committing would take queued "got" lines with it.
  const write = (text) => new Promise((resolve, reject) => process.stdout.write(text, (error) => (error ? reject(error) : resolve())));
  const claim = await store.claim(session);
  await write(claim.entries.map((e) => `got ${e.id}\n`).join(""));
  await claim.commit();
  await write("committed\n");
} else if (mode === "claim-and-hang") {
  const claim = await store.claim(session);
  process.stdout.write(`claimed ${claim.entries.length}\n`);
  setInterval(() => {}, 1000);
}
