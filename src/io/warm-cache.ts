import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { writeFileAtomically } from "./fs/atomic-write.js";
import { fingerprint } from "../core/fingerprint.js";
import { createRunMemo, type RunMemo } from "../core/run-memo.js";
import { MAX_WARM_CHARS, type WarmData } from "../core/warm.js";
import { under } from "./fs/paths.js";
import { stateDir } from "./session/session-store.js";

/**
 * What made the saved data (this build of ctxinject, by version and a digest of its sources; picomatch compiled the
 * globs, stemmer made the stems), written into the bundles by scripts/bundle.mjs. Unset when running from source
 * (tests through tsx): then nothing is saved.
 */
declare const CTXINJECT_WARM_KEY: string | undefined;
const WARM_KEY = typeof CTXINJECT_WARM_KEY === "string" ? CTXINJECT_WARM_KEY : undefined;

/**
 * A run's memo (core/run-memo.ts), holding what earlier runs in this project saved (core/warm.ts), and the call that
 * saves this run's additions: one JSON file per project in the state folder (`warm/<fingerprint of the root>.json`),
 * written to a temp file and renamed, so runs at the same time never see half a file (the last one's additions win;
 * what is lost is only a cache). A missing, damaged or other-version file is no cache; it is never an error.
 */
export function loadRunMemo(env: Record<string, string | undefined>, root: string, now: () => number = Date.now): { memo: RunMemo; save: () => void } {
  if (WARM_KEY === undefined || env.CTXINJECT_NO_WARM_CACHE) return { memo: createRunMemo(), save: () => undefined };
  const dir = under(stateDir(env), "warm");
  const file = under(dir, `${fingerprint(root)}.json`);
  let memo: RunMemo | undefined;
  try {
    if (statSync(file, { throwIfNoEntry: false }) !== undefined) {
      const text = readFileSync(file, "utf8");
      // Larger than this process would ever write (another version's, or altered): rebuilt rather than read each time.
      if (text.length > 2 * MAX_WARM_CHARS) throw new Error("too large");
      const saved = JSON.parse(text) as Partial<WarmData> & { key?: unknown };
      if (saved.key === WARM_KEY && isRecord(saved.globs) && isRecord(saved.stems)) memo = createRunMemo(saved as WarmData, text.length);
    }
  } catch {
    // no cache
  }
  const run = memo ?? createRunMemo();
  const save = () => {
    const changes = run.warm.takeChanges();
    if (changes === null) return;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileAtomically(file, JSON.stringify({ key: WARM_KEY, ...changes }));
      collectOld(dir, now());
    } catch {
      // a cache that cannot be written only means the next run works it out again
    }
  };
  return { memo: run, save };
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** A project's file not written for a week goes (its next run works it all out again); looked for at most hourly. */
const MAX_AGE_MS = 7 * 24 * 3_600_000;
const COLLECT_EVERY_MS = 3_600_000;

function collectOld(dir: string, now: number): void {
  const marker = under(dir, ".collected");
  const last = statSync(marker, { throwIfNoEntry: false });
  if (last !== undefined && now - last.mtimeMs < COLLECT_EVERY_MS) return;
  writeFileSync(marker, "", { mode: 0o600 });
  for (const name of readdirSync(dir)) {
    const path = under(dir, name);
    const info = name.endsWith(".json") ? statSync(path, { throwIfNoEntry: false }) : undefined;
    if (info !== undefined && now - info.mtimeMs > MAX_AGE_MS) rmSync(path, { force: true });
  }
}
