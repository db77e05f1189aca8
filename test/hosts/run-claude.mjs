// Runs inside `unshare -n` (loopback only): brings lo up, starts the fake API, runs the real Claude Code CLI once
// per prompt of the scenario, and writes what the API received to the output file.
//   node run-claude.mjs SCENARIO.json OUT.json
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { startFakeAnthropic } from "./fake-anthropic.mjs";

const [scenarioPath, outPath] = process.argv.slice(2);
const scenario = JSON.parse(readFileSync(scenarioPath, "utf8"));
spawnSync("ip", ["link", "set", "lo", "up"]);
const api = await startFakeAnthropic(scenario.script ?? []);
const runs = [];
for (const run of scenario.runs) {
  const env = {
    PATH: process.env.PATH,
    HOME: scenario.home,
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: "sk-ant-fake-key-for-tests",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_BUG_COMMAND: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: "1",
    CTXINJECT_STATE_DIR: scenario.stateDir,
    NO_COLOR: "1",
    ...scenario.env,
  };
  const started = Date.now();
  // Asynchronous: the fake API answers from this same process, so its event loop must keep running.
  const result = await run_(scenario.claude, run.args, { cwd: scenario.cwd, env });
  runs.push({ args: run.args, ...result, ms: Date.now() - started });
}
await api.close();
writeFileSync(outPath, JSON.stringify({ runs, requests: api.requests }, null, 2));

function run_(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ status: null, stdout, stderr, error: error.message });
    });
  });
}
