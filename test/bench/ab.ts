/**
 * `npm run bench:ab -- [REF]`: this checkout's build against REF's (default HEAD), side by side with `node -e 0`,
 * on a benchmark tree: the way to see a change of a few milliseconds on a machine whose speed drifts, since the
 * three commands take turns run by run. REF is built from a git worktree with this checkout's node_modules.
 *
 *   BENCH_AB_SIZE=small|medium|large   the tree (default small)
 *   BENCH_AB_RUNS=41                   runs of each command
 *   BENCH_AB_EVENT=UserPromptSubmit    the Claude Code event (UserPromptSubmit, PostToolUse), "build" for build --files
 *                                      or "all" for build --all
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, REPO } from "../helpers/cli.js";
import { generate, SIZES } from "./generate.js";

const ref = process.argv[2] ?? "HEAD";
const size = SIZES.find((s) => s.name === (process.env.BENCH_AB_SIZE ?? "small"));
if (!size) throw new Error(`BENCH_AB_SIZE: one of ${SIZES.map((s) => s.name).join(", ")}`);
const runs = Number(process.env.BENCH_AB_RUNS ?? 41);
const event = process.env.BENCH_AB_EVENT ?? "UserPromptSubmit";

const run = (command: string, args: string[], cwd: string) => {
  const r = spawnSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed:\n${r.stderr}`);
  return r.stdout;
};

const work = mkdtempSync(join(tmpdir(), "ctxinject-ab-"));
const before = join(work, "before");
try {
  run("git", ["worktree", "add", "--detach", before, ref], REPO);
  symlinkSync(join(REPO, "node_modules"), join(before, "node_modules"));
  run(process.execPath, ["scripts/bundle.mjs"], before);
  const tree = generate(join(tmpdir(), "ctxinject-bench"), size, true);
  const eventFile = join(work, "event.json");
  const fields = event === "PostToolUse" ? { tool_name: "Read", tool_input: { file_path: join(tree.root, tree.target) } } : { prompt: `fix the retry in ${tree.target}` };
  writeFileSync(eventFile, JSON.stringify({ hook_event_name: event, session_id: "SESSION", cwd: tree.root, ...fields }));
  const invoke = (bin: string) => {
    if (event === "build") return `node ${bin} build --files ${tree.target}`;
    if (event === "all") return `node ${bin} build --all 2>/dev/null`;
    return `sed "s/SESSION/$$/" ${eventFile} | node ${bin} hook claude`;
  };
  const commands: Record<string, string> = { "node -e 0": "node -e 0", [ref]: invoke(join(before, "bin/ctxinject.js")), "this checkout": invoke(BIN) };
  const times = Object.fromEntries(Object.keys(commands).map((k) => [k, [] as number[]]));
  // CPU time (user + system, from GNU time where present): what other processes on a busy machine add to wall time
  // they mostly do not add to it, so a change of a few per cent shows in it when wall times drown it.
  const cpu = Object.fromEntries(Object.keys(commands).map((k) => [k, [] as number[]]));
  const timeFile = join(work, "time");
  const hasTime = existsSync("/usr/bin/time");
  // Each build its own state folder: what one saves for the next run is not the other's.
  const envOf = (index: number) => ({ ...process.env, NO_COLOR: "1", CTXINJECT_STATE_DIR: join(work, `state-${index}`) });
  for (let i = -1; i < runs; i++) {
    for (const [index, [name, command]] of Object.entries(commands).entries()) {
      const started = process.hrtime.bigint();
      const timed = hasTime ? `/usr/bin/time -f '%U %S' -o ${timeFile} sh -c '${command.replace(/'/g, `'\\''`)}'` : command;
      const r = spawnSync("sh", ["-c", timed], { cwd: tree.root, stdio: "ignore", env: envOf(index) });
      if (r.status !== 0) throw new Error(`failed: ${command}`);
      if (i < 0) continue;
      times[name]!.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (hasTime) cpu[name]!.push(readFileSync(timeFile, "utf8").trim().split(/\s+/).slice(-2).reduce((sum, s) => sum + Number(s) * 1000, 0));
    }
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  const fastest = (list: number[]) => Math.min(...list);
  const floor = times["node -e 0"]!;
  console.log(`${size.name} tree, ${event === "build" ? "build --files" : event === "all" ? "build --all" : `hook claude ${event}`}, ${runs} runs taking turns (ms; ratio to node -e 0)`);
  for (const [name, list] of Object.entries(times)) {
    const used = cpu[name]!.length > 0 ? `  cpu median ${median(cpu[name]!).toFixed(0)}` : "";
    console.log(`${name.padEnd(14)} median ${median(list).toFixed(1)} (${(median(list) / median(floor)).toFixed(3)})  fastest ${fastest(list).toFixed(1)} (${(fastest(list) / fastest(floor)).toFixed(3)})${used}`);
  }
} finally {
  spawnSync("git", ["worktree", "remove", "--force", before], { cwd: REPO });
  rmSync(work, { recursive: true, force: true });
}
