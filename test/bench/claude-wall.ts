/**
 * `npm run bench:claude`: `claude -p` wall time with and without ctxinject's hooks, the real Claude Code CLI of the
 * host suite against its fake API (in `unshare -n`), runs taking turns. A measurement, not a test.
 *
 *   BENCH_RUNS=9   prompts per side (median reported)
 */
import { join } from "node:path";
import { materialize, runCli, cleanup } from "../helpers/cli.js";
import { CLAUDE_CODE_VERSION, claudeBinary, claudeEnv } from "../hosts/claude-cli.js";
import { removeWorkFolders, runScenario, workFolder } from "../hosts/harness.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const found = claudeBinary();
if ("skip" in found) {
  console.error(`bench: Claude Code cannot be run here: ${found.skip}`);
  process.exit(1);
}

/** One prompt that reads a nested file: UserPromptSubmit, PreToolUse and PostToolUse all fire with the hooks. */
function timePrompt(root: string): number {
  const work = workFolder("claude-wall");
  const env = claudeEnv(work);
  const script = [{ tool: { name: "Read", input: { file_path: join(root, "packages/api/src/handler.ts") } } }, { text: "ok" }];
  const out = runScenario(
    work,
    {
      command: (found as { path: string }).path,
      cwd: root,
      env,
      script,
      runs: [{ args: ["-p", "fix the retry in src/net/client.ts", "--output-format", "text"] }],
    },
    "claude",
  );
  return out.runs[0]!.ms;
}

const bare = materialize("claude-host");
const hooked = materialize("claude-host");
const init = runCli(["init", "--claude"], { cwd: hooked });
if (init.status !== 0) throw new Error(init.stderr);
const times = { bare: [] as number[], hooked: [] as number[] };
timePrompt(bare);
timePrompt(hooked);
for (let i = 0; i < RUNS; i++) {
  times.bare.push(timePrompt(bare));
  times.hooked.push(timePrompt(hooked));
}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[list.length >> 1]!;
console.log(
  `claude -p (Claude Code ${CLAUDE_CODE_VERSION}, one prompt with a Read): without hooks ${median(times.bare).toFixed(0)} ms, with ctxinject's hooks ${median(times.hooked).toFixed(0)} ms (+${(median(times.hooked) - median(times.bare)).toFixed(0)} ms), medians of ${RUNS} runs taking turns`,
);
cleanup();
removeWorkFolders();
