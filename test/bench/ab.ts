/**
 * `npm run bench:ab -- [REF]`: this checkout's build against REF's (default HEAD), side by side with `node -e 0`,
 * on a benchmark tree: the way to see a change of a few milliseconds on a machine whose speed drifts, since the
 * three commands take turns run by run. REF is built from a git worktree with this checkout's node_modules.
 *
 *   BENCH_AB_SIZE=small|medium|large|wide   the tree (default small; wide: issue 46's wide monorepo, wide.ts)
 *   BENCH_AB_RUNS=41                   runs of each command
 *   BENCH_AB_EVENT=UserPromptSubmit    the Claude Code event (UserPromptSubmit, PostToolUse), "build" for build --files
 *                                      or "all" for build --all
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, REPO } from "../helpers/cli.js";
import { generate, SIZES } from "./generate.js";
import { inputPerRun, sideBySide } from "./measure.js";
import { generateWide } from "./wide.js";

const ref = process.argv[2] ?? "HEAD";
const sizeName = process.env.BENCH_AB_SIZE ?? "small";
const size = SIZES.find((s) => s.name === sizeName);
if (!size && sizeName !== "wide") throw new Error(`BENCH_AB_SIZE: one of ${SIZES.map((s) => s.name).join(", ")}, wide`);
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
  const trees = join(tmpdir(), "ctxinject-bench");
  const tree = size ? generate(trees, size, true) : generateWide(trees);
  const fields =
    event === "PostToolUse" ? { tool_name: "Read", tool_input: { file_path: join(tree.root, tree.target) } } : { prompt: `fix the retry in ${tree.target}` };
  // A new session each run, for each build its own events.
  const invoke = (bin: string, name: string) => {
    if (event === "build") return `node ${bin} build --files ${tree.target}`;
    if (event === "all") return `node ${bin} build --all 2>/dev/null`;
    const input = (run: number) => JSON.stringify({ hook_event_name: event, session_id: `${name}-${run}`, cwd: tree.root, ...fields });
    return inputPerRun(join(work, `event-${name}`), runs, input, `node ${bin} hook claude`);
  };
  const commands: Record<string, string> = {
    "node -e 0": "node -e 0",
    [ref]: invoke(join(before, "bin/ctxinject.js"), "before"),
    "this checkout": invoke(BIN, "after"),
  };
  // Each build its own state folder: what one saves for the next run is not the other's.
  const names = Object.keys(commands);
  const timings = sideBySide(
    tree.root,
    names.map((name, index) => ({ command: commands[name]!, env: { CTXINJECT_STATE_DIR: join(work, `state-${index}`) } })),
    runs,
  );
  const floor = timings[0]!;
  console.log(
    `${sizeName} tree, ${event === "build" ? "build --files" : event === "all" ? "build --all" : `hook claude ${event}`}, ${runs} runs taking turns (ms; ratio to node -e 0)`,
  );
  names.forEach((name, i) => {
    const t = timings[i]!;
    const cpu = t.cpuMs === null ? "" : `  cpu median ${t.cpuMs.toFixed(0)}`;
    console.log(
      `${name.padEnd(14)} median ${t.ms.toFixed(1)} (${(t.ms / floor.ms).toFixed(3)})  fastest ${t.fastest.toFixed(1)} (${(t.fastest / floor.fastest).toFixed(3)})${cpu}`,
    );
  });
} finally {
  spawnSync("git", ["worktree", "remove", "--force", before], { cwd: REPO });
  rmSync(work, { recursive: true, force: true });
}
