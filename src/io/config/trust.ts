import { mkdirSync, readFileSync } from "node:fs";
import { writeFileAtomically } from "../fs/atomic-write.js";
import { join } from "node:path";
import { readBoundedBytes } from "../fs/bounded-read.js";
import { lazyRequire } from "../lazy-node.js";
import { realOrSelf } from "../fs/paths.js";
import { stateDir } from "../session/session-store.js";

/**
 * A JavaScript config is code from the repository. A hook installed for the user runs ctxinject in every repository
 * the user opens, so a cloned repository's config would run unasked: it runs only once trusted here — its real path
 * and the SHA-256 of its text recorded in the state folder (a changed file needs trust again) — or where the
 * environment says the repository's code runs anyway: CTXINJECT_TRUST_ALL=1, or CI (a pipeline runs the
 * repository's own scripts). Data configs (JSON, YAML, package.json) are parsed by ctxinject (io/config/config.ts): nothing
 * in them can run, so they need no trust.
 */
export const isCodeConfig = (file: string): boolean => /\.(c|m)?js$|\.ts$/.test(file);

const storeOf = (env: Record<string, string | undefined>) => join(stateDir(env), "trusted-configs.json");

function readStore(env: Record<string, string | undefined>): Record<string, string> {
  try {
    const value = JSON.parse(readFileSync(storeOf(env), "utf8")) as unknown;
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function writeStore(env: Record<string, string | undefined>, store: Record<string, string>): void {
  const file = storeOf(env);
  mkdirSync(stateDir(env), { recursive: true, mode: 0o700 });
  writeFileAtomically(file, `${JSON.stringify(store, null, 2)}\n`);
}

/** The SHA-256 trust records, of a file's bytes as read (bounded: it is a repository's file). */
export const sha256Of = (bytes: Buffer | string): string =>
  lazyRequire<typeof import("node:crypto")>("node:crypto").createHash("sha256").update(bytes).digest("hex");
const sha256 = (file: string): string => sha256Of(readBoundedBytes(file));

// The hook server hands back requests whose values of these variables differ from its own: io/hook-transport/spool.ts's
// TRUST_SWITCHES names the same two (kept there so the hook client loads nothing of this module).
const trustedByEnvironment = (env: Record<string, string | undefined>): boolean =>
  env.CTXINJECT_TRUST_ALL === "1" || (env.CI !== undefined && env.CI !== "" && env.CI !== "0" && env.CI.toLowerCase() !== "false");

/** Whether a code config may run: trusted by the environment, or recorded with the hash of its text as it is now. */
export function isTrusted(file: string, env: Record<string, string | undefined>, hash?: string): boolean {
  if (trustedByEnvironment(env)) return true;
  const recorded = readStore(env)[realOrSelf(file)];
  return recorded !== undefined && recorded === (hash ?? sha256(file));
}

/** Records the config file as trusted, as its text is now; returns the hash. */
export function trust(file: string, env: Record<string, string | undefined>): string {
  const hash = sha256(file);
  writeStore(env, { ...readStore(env), [realOrSelf(file)]: hash });
  return hash;
}

/** Forgets a trusted config; false when it was not trusted. */
export function revokeTrust(file: string, env: Record<string, string | undefined>): boolean {
  const store = readStore(env);
  const key = realOrSelf(file);
  if (!(key in store)) return false;
  delete store[key];
  writeStore(env, store);
  return true;
}
