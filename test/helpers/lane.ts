import { spawnSync } from "node:child_process";
import { test as uvuTest } from "uvu";

/**
 * Which lane runs this suite (see the README's tests section): `npm test` runs the fast lane, `npm run test:hosts`
 * sets CTXINJECT_TEST_FULL=1 and runs the stress rounds and the git oracle at full size.
 */
export const FULL = process.env.CTXINJECT_TEST_FULL === "1";

/** A round count: `quick` in the fast lane, `full` in the slow one. */
export function sized(quick: number, full: number): number {
  return FULL ? full : quick;
}

/** Whether a command is on PATH. */
export function onPath(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

/**
 * `test`, or uvu's `test.skip` when `missing` names what this machine lacks: uvu counts it under "Skipped" (never
 * under "Passed") and the reason is printed as a `skipped: …` line, which .ci/run repeats in its summary. A test
 * that needs a tool asks for it here, never installs it (test/lanes/setup.sh does, for CI and the slow lane).
 * `test` may be a suite's `test.skip` already (a host suite whose CLI could not be installed): it stays skipped.
 */
export function testUnless(
  missing: string | false | undefined,
  test: typeof uvuTest | typeof uvuTest.skip = uvuTest,
): (name: string, fn: Parameters<typeof uvuTest>[1]) => void {
  if (!missing) return test;
  const skip = "skip" in test ? test.skip : test;
  return (name) => {
    console.log(`skipped: ${name}: ${missing}`);
    skip(name, async () => undefined);
  };
}
