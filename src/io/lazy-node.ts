import { createRequire } from "node:module";

type Crypto = typeof import("node:crypto");
type ChildProcess = typeof import("node:child_process");
type Os = typeof import("node:os");

/**
 * Node modules loaded on first use. A top-level import of node:crypto or node:child_process (which brings net,
 * dgram and streams with it) costs milliseconds of start-up that a build without a session or without git never
 * needs; in the bundle every top-level import runs at start. node:os only for a home folder where HOME is not set.
 */
let requireHere: NodeJS.Require | undefined;
// Made on first use: a run that loads nothing lazily does not pay for it.
const load = (id: string): unknown => (requireHere ??= createRequire(import.meta.url))(id);
/**
 * require for packages loaded on first use (the BPE tables, a trusted config's import helper). Not import(): the CLI runs from V8's code
 * cache, where a dynamic import() has no loader to call (see bin/ctxinject.js).
 */
export const lazyRequire = <T>(id: string): T => load(id) as T;
let crypto: Crypto | undefined;
let childProcess: ChildProcess | undefined;
let os: Os | undefined;

export const randomHex = (bytes: number): string => (crypto ??= load("node:crypto") as Crypto).randomBytes(bytes).toString("hex");
export const spawnSync: ChildProcess["spawnSync"] = ((...args: Parameters<ChildProcess["spawnSync"]>) =>
  (childProcess ??= load("node:child_process") as ChildProcess).spawnSync(...args)) as ChildProcess["spawnSync"];
/**
 * The user's home folder: HOME where it is set (what os.homedir() answers with then), so that node:os (~1 ms) is
 * loaded only where it is not.
 */
export const homedir = (env: Record<string, string | undefined>): string => env.HOME || (os ??= load("node:os") as Os).homedir();
