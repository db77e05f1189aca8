/**
 * The fake embedding server (test/helpers/fake-embeddings.ts) in a process of its own, for `npm run bench`: the
 * bench's commands run under spawnSync, which would hold a server in the bench's own process. Prints its address on
 * the first line; runs until killed.
 */
import { startFakeEmbeddings } from "../helpers/fake-embeddings.js";

const fake = await startFakeEmbeddings();
process.stdout.write(`${fake.url}\n`);
