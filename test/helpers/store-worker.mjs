// A worker process for the session-store tests: it uses the built store the CLI uses.
//   register <dir> <session> <prefix> <count>   registers count entries, printing "ok <id>" after each
//   claim-and-hang <dir> <session>               claims everything, prints "claimed N", then waits to be killed
//   consume <dir> <session>                      claims, prints "got <id>" per entry, commits, prints "committed"
import { SessionStore } from "../../dist/io/session-store.js";

const [mode, dir, session, prefix, count] = process.argv.slice(2);
const store = new SessionStore(dir);
if (mode === "register") {
  for (let i = 0; i < Number(count); i++) {
    const id = `${prefix}-${i}`;
    await store.register(session, { source: "worker", id, content: `content of ${id} `.repeat(20) });
    process.stdout.write(`ok ${id}\n`);
  }
} else if (mode === "consume") {
  const claim = await store.claim(session);
  for (const e of claim.entries) process.stdout.write(`got ${e.id}\n`);
  await claim.commit();
  process.stdout.write("committed\n");
} else if (mode === "claim-and-hang") {
  const claim = await store.claim(session);
  process.stdout.write(`claimed ${claim.entries.length}\n`);
  setInterval(() => {}, 1000);
}
