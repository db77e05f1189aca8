/**
 * Commands measured side by side, taking turns run by run, so that a drift of the machine's speed falls on all of
 * them alike: what `npm run bench` and `npm run bench:ab` both report.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Command {
  command: string;
  /** Added to this process's environment; an undefined value takes the variable out. */
  env?: Record<string, string | undefined>;
}

export interface Timing {
  /** Median wall time, ms. */
  ms: number;
  /** The fastest run: on a shared machine, noise only ever adds time. */
  fastest: number;
  /** Peak RSS of the median run (GNU time), when present. */
  rssMiB: number | null;
  /**
   * Median CPU time (user + system, GNU time), when present: what other processes on a busy machine add to wall
   * time they mostly do not add to this, so a change of a few per cent shows in it when wall times drown it.
   */
  cpuMs: number | null;
}

const HAS_TIME = existsSync("/usr/bin/time");

/** Each command `runs` times after a warm-up, the commands taking turns; a command that fails stops the measuring. */
export function sideBySide(cwd: string, commands: Command[], runs: number): Timing[] {
  const scratch = mkdtempSync(join(tmpdir(), "ctxinject-measure-"));
  const timeFile = join(scratch, "time");
  try {
    const once = ({ command, env = {} }: Command) => {
      // The whole command under GNU time (a pipeline included), through a shell of its own.
      const timed = HAS_TIME ? `/usr/bin/time -f '%M %U %S' -o ${timeFile} sh -c '${command.replace(/'/g, `'\\''`)}'` : command;
      const started = process.hrtime.bigint();
      const r = spawnSync("sh", ["-c", timed], {
        cwd,
        stdio: ["ignore", "ignore", "pipe"],
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1", CI: "true", ...env },
      });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (r.status !== 0) throw new Error(`benchmark command failed (${r.status}): ${command}\n${r.stderr}`);
      const [rss, user, system] = HAS_TIME ? readFileSync(timeFile, "utf8").trim().split(/\s+/).slice(-3).map(Number) : [];
      return { ms, rssMiB: rss === undefined ? null : rss / 1024, cpuMs: user === undefined ? null : (user + system!) * 1000 };
    };
    commands.forEach(once);
    const samples = commands.map(() => [] as Array<ReturnType<typeof once>>);
    for (let run = 0; run < runs; run++) commands.forEach((command, i) => samples[i]!.push(once(command)));
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
    return samples.map((list) => {
      const byTime = [...list].sort((a, b) => a.ms - b.ms);
      const cpu = list.flatMap((s) => (s.cpuMs === null ? [] : [s.cpuMs]));
      return {
        ms: byTime[Math.floor(byTime.length / 2)]!.ms,
        fastest: byTime[0]!.ms,
        rssMiB: byTime[Math.floor(byTime.length / 2)]!.rssMiB,
        cpuMs: cpu.length > 0 ? median(cpu) : null,
      };
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * `command` reading another input each run, as a host writes each event to a hook: one file per run (the warm-up's
 * included), taken in turn by shell builtins alone, so nothing runs beside the command (a `sed … |` in front put a
 * second process and a pipe on its side only).
 */
export function inputPerRun(base: string, runs: number, input: (run: number) => string, command: string): string {
  for (let run = 0; run <= runs; run++) writeFileSync(`${base}-${run}.json`, input(run));
  writeFileSync(`${base}.next`, "0\n");
  return `read n < ${base}.next; echo $((n + 1)) > ${base}.next; exec ${command} < ${base}-$n.json`;
}
