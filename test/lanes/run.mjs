#!/usr/bin/env node
// Runs one lane's uvu suites (docs/testing.md): `node test/lanes/run.mjs fast|slow`. The fast lane's files are dealt
// to two uvu processes at once (a two-core machine's both cores: most of a suite is this process's own work, not
// waiting), each one's output printed whole when it ends; the slow lane runs in one (the host CLIs are heavy). Ends
// with one uvu-style summary (Total, Passed, Skipped) over all of them, which .ci/run reads, and exits non-zero when
// any failed.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "uvu/parse";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "../..");
const LANES = {
  fast: { pattern: "\\.test\\.ts$", ignore: ["^hosts", "^slow", "start-up\\.test"], env: {}, processes: 2 },
  // test/slow: measurements that take seconds (the hook in a PID namespace of its own).
  slow: {
    pattern: "^(hosts/.*|slow/.*|e2e/start-up|e2e/session|unit/gitignore|security/parallel-hooks)\\.test\\.ts$",
    ignore: [],
    env: { CTXINJECT_TEST_FULL: "1" },
    processes: 1,
  },
};

const lane = LANES[process.argv[2]];
if (lane === undefined) {
  process.stderr.write(`usage: node test/lanes/run.mjs ${Object.keys(LANES).join("|")}\n`);
  process.exit(2);
}
const processes = Number(process.env.CTXINJECT_TEST_PROCESSES) > 0 ? Number(process.env.CTXINJECT_TEST_PROCESSES) : lane.processes;
const { suites } = await parse(join(REPO, "test"), lane.pattern, { ignore: lane.ignore });
// Dealt in name order, one each in turn: the heavy e2e files spread over both.
const shards = Array.from({ length: processes }, (_, i) => suites.filter((_, n) => n % processes === i).map((s) => s.name));
const escapeRegExp = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const uvu = join(REPO, "node_modules/uvu/bin.js");

const started = Date.now();
const results = await Promise.all(
  shards
    .filter((names) => names.length > 0)
    .map(
      (names) =>
        new Promise((resolve) => {
          const child = spawn(process.execPath, [uvu, "-r", "tsx", "test", `^(${names.map(escapeRegExp).join("|")})$`], {
            cwd: REPO,
            env: { ...process.env, ...lane.env },
            stdio: ["ignore", "pipe", "pipe"],
          });
          let output = "";
          child.stdout.on("data", (chunk) => (output += chunk));
          child.stderr.on("data", (chunk) => (output += chunk));
          child.on("close", (code, signal) => {
            process.stdout.write(output);
            resolve({ code: code ?? 1, signal, output, files: names.length });
          });
        }),
    ),
);

const plain = (text) => text.replace(/\x1b\[[0-9;]*m/g, "");
const count = (text, label) =>
  Number(
    /^ *(?:Total|Passed|Skipped): *(\d+)/m.exec(
      plain(text)
        .split("\n")
        .filter((l) => l.trim().startsWith(label))
        .pop() ?? "",
    )?.[1] ?? 0,
  );
let total = 0;
let passed = 0;
let skipped = 0;
let failed = false;
for (const r of results) {
  total += count(r.output, "Total:");
  passed += count(r.output, "Passed:");
  skipped += count(r.output, "Skipped:");
  if (r.code !== 0 || r.signal !== null) failed = true;
}
process.stdout.write(
  `\n${results.length} uvu processes (${results.map((r) => `${r.files} files`).join(", ")})\n  Total:     ${total}\n  Passed:    ${passed}\n  Skipped:   ${skipped}\n  Duration:  ${Date.now() - started}ms\n\n`,
);
process.exit(failed || passed < total ? 1 : 0);
