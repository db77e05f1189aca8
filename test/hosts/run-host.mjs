// Runs inside `unshare -n` (loopback only): brings lo up, starts the fake API, runs a real host CLI once per
// entry of the scenario's runs, and writes what the API received to the output file.
//   node run-host.mjs SCENARIO.json OUT.json
// Scenario: { command, cwd, home, env, files?, script, runs: [{ args }] }. "{{API}}" in env values and in the
// contents of `files` (path → text, written before the first run) becomes the fake API's address; "{{SESSION}}" in
// a run's args, the first session id an earlier run printed (`"sessionID":"…"`). A run may name its own command.
// A run's `converse` (in place of `input`) is an editor's side of a line protocol on stdin: each step's `send` (a
// JSON value) is written as one line once the host has printed the previous step's `until` text on stdout after it
// was sent; stdin is closed after the last step's `until`.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { startFakeApi } from "./fake-api.mjs";

const [scenarioPath, outPath] = process.argv.slice(2);
const scenario = JSON.parse(readFileSync(scenarioPath, "utf8"));
spawnSync("ip", ["link", "set", "lo", "up"]);
const api = await startFakeApi(scenario.script ?? []);
const fill = (text) => text.replaceAll("{{API}}", api.url);
for (const [path, text] of Object.entries(scenario.files ?? {})) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, fill(text));
}
const env = {
  PATH: process.env.PATH,
  HOME: scenario.home,
  NO_COLOR: "1",
  ...Object.fromEntries(Object.entries(scenario.env ?? {}).map(([k, v]) => [k, fill(v)])),
};
const runs = [];
for (const run of scenario.runs) {
  const started = Date.now();
  // Asynchronous: the fake API answers from this same process, so its event loop must keep running.
  const session = /"sessionID":"([^"]+)"/.exec(runs.map((r) => r.stdout).join("\n"))?.[1] ?? "";
  const args = run.args.map((a) => a.replaceAll("{{SESSION}}", session));
  const result = await run_(run.command ?? scenario.command, args, { cwd: run.cwd ?? scenario.cwd, env }, run.input, run.converse);
  runs.push({ args, ...result, ms: Date.now() - started });
}
await api.close();
writeFileSync(outPath, JSON.stringify({ runs, requests: api.requests }, null, 2));

function run_(command, args, options, input, converse) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: [input === undefined && converse === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
    if (input !== undefined) child.stdin.end(input);
    let stdout = "";
    let stderr = "";
    const steps = [...(converse ?? [])];
    let waiting = null;
    const next = () => {
      if (waiting !== null && !stdout.slice(waiting.from).includes(waiting.until)) return;
      const step = steps.shift();
      if (step === undefined) {
        waiting = null;
        if (converse !== undefined && !child.stdin.writableEnded) child.stdin.end();
        return;
      }
      waiting = { from: stdout.length, until: step.until };
      child.stdin.write(`${JSON.stringify(step.send)}\n`);
    };
    if (converse !== undefined) next();
    child.stdout.on("data", (d) => {
      stdout += d;
      if (converse !== undefined) next();
    });
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
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
