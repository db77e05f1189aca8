/**
 * `npm run bench`: measures ctxinject side by side with its floor and its peers, in one run, as ratios.
 * A measurement, not a test: it exits non-zero only when it cannot run.
 *
 *   BENCH_SIZES=small,medium,large,wide   which trees (default: all four; wide is issue 46's wide monorepo, wide.ts)
 *   BENCH_RUNS=9                     timed runs per command, after one warm-up (median reported)
 *   BENCH_START_RUNS=41              the same for node -e 0, build --files and the hooks, which take turns
 *   BENCH_NO_REPOMIX=1               skip the repomix comparison
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, REPO, stopHookServers } from "../helpers/cli.js";
import { SessionStore } from "../../src/io/session/session-store.js";
import { generate, SIZES, type Generated } from "./generate.js";
import { hostEvents } from "./host-events.js";
import { inputPerRun, sideBySide, type Timing } from "./measure.js";
import { servedInPidNamespace } from "./pid-namespace.js";
import { generateWide } from "./wide.js";

// repomix's own time moves by a fifth between runs (2.5 to 3.1 s on the large tree): nine runs steady the medians
// its ratio is taken of.
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
// Start-up commands take a tenth of a second: more runs of them cost little and steady their medians.
const START_RUNS = Number(process.env.BENCH_START_RUNS ?? 41);
const WANTED = (process.env.BENCH_SIZES ?? "small,medium,large,wide").split(",");
const BENCH_DIR = join(REPO, "test/bench");
const TREES = join(tmpdir(), "ctxinject-bench");

// The instruction files ctxinject reads with --all, as git pathspecs and as repomix globs.
// The patterns a user would give repomix's --include for the instruction files this tree has.
const NAMES = [
  ".cursor/rules/**",
  ".claude/rules/**",
  "docs/kord/rules/**",
  ".github/instructions/**",
  ".github/copilot-instructions.md",
  ".cursorrules",
  "AGENTS.md",
  "CLAUDE.md",
  "README.md",
];
const PATHSPECS = NAMES.map((n) => `':(glob)**/${n}'`).join(" ");
const GLOBS = NAMES.map((n) => `**/${n}`).join(",");

const measure = (cwd: string, command: string): Timing => sideBySide(cwd, [{ command }], RUNS)[0]!;

function repomixBin(): string | null {
  if (process.env.BENCH_NO_REPOMIX) return null;
  const bin = join(BENCH_DIR, "node_modules/.bin/repomix");
  if (!existsSync(bin)) {
    console.error("bench: installing repomix for the comparison (test/bench/package.json)…");
    const r = spawnSync("npm", ["install", "--prefix", BENCH_DIR, "--no-audit", "--no-fund", "--silent"], { stdio: "inherit" });
    if (r.status !== 0 || !existsSync(bin)) {
      console.error("bench: repomix could not be installed; its comparison is skipped");
      return null;
    }
  }
  return bin;
}

const ctx = `node ${BIN}`;
const fmt = (n: number) => n.toFixed(0);
const ratio = (a: number, b: number) => (a / b).toFixed(2);

mkdirSync(TREES, { recursive: true });
const states = mkdtempSync(join(tmpdir(), "ctxinject-bench-state-"));
// The hooks run as a user's do: no state folder set, so it is found from HOME (a throwaway one here). Their hook
// server (src/cli/hook-transport/server.ts) is the bench's own, in a spool of its own, stopped at the end; "own process"
// columns are the same hooks with the server off (CTXINJECT_HOOK_SERVER=0): a user's first call, or where none can run.
const runtime = join(states, "run");
mkdirSync(runtime, { mode: 0o700 });
const hookEnv = {
  HOME: join(states, "home"),
  CTXINJECT_STATE_DIR: undefined,
  XDG_STATE_HOME: undefined,
  XDG_RUNTIME_DIR: runtime,
  CTXINJECT_HOOK_SERVER_IDLE_MS: "120000",
};
const ownProcess = { ...hookEnv, CTXINJECT_HOOK_SERVER: "0" };
process.on("exit", () => {
  stopHookServers(runtime);
  rmSync(states, { recursive: true, force: true });
});
const hookState = join(hookEnv.HOME, ".local/state/ctxinject");
// Opt-in embeddings (docs/relevance.md): the prompt hook in its own process with CTXINJECT_EMBEDDINGS_* naming the
// fake embedding server on 127.0.0.1 (its own process), reported apart from the table: what a user who turns them on
// adds to each prompt, the server's own time near nothing (a real model's is the user's to add).
const fakeServer = spawn(process.execPath, ["--import", "tsx", join(BENCH_DIR, "fake-embeddings-server.ts")], {
  cwd: REPO,
  stdio: ["ignore", "pipe", "inherit"],
});
process.on("exit", () => fakeServer.kill());
const fakeUrl = await new Promise<string>((resolve, reject) => {
  fakeServer.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8").trim()));
  fakeServer.once("exit", (code) => reject(new Error(`the fake embedding server exited (${code})`)));
});
const withEmbeddings = {
  ...ownProcess,
  CTXINJECT_EMBEDDINGS_PROVIDER: "ollama",
  CTXINJECT_EMBEDDINGS_MODEL: "bench-concepts",
  CTXINJECT_EMBEDDINGS_BASE_URL: fakeUrl,
};
const sizes = SIZES.filter((s) => WANTED.includes(s.name));
const rows: string[][] = [];
const fastestRows: string[][] = [];
const notes: string[] = [];
const hostRatios = new Map<string, string[]>();
const repomix = repomixBin();
console.error(`bench: ${RUNS} runs per command after a warm-up; trees in ${TREES}`);

for (const size of sizes) {
  console.error(`bench: ${size.name}: generating…`);
  const tree: Generated = generate(TREES, size, true);
  const plain: Generated = generate(TREES, size, false);
  console.error(`bench: ${size.name}: ${tree.files} files; measuring…`);
  // Each event the hooks answer, in a new session each run (for the prompt hook, its first prompt: nothing injected
  // yet), on standard input as a host writes it.
  const eventFile = (name: string, fields: Record<string, unknown>, agent = "claude", tag = agent) => {
    const id = `${size.name}-${tag}-${name}`;
    const event = (run: number) => JSON.stringify({ hook_event_name: name, session_id: `${id}-${run}`, cwd: tree.root, ...fields });
    return { command: inputPerRun(join(states, id), START_RUNS, event, `${ctx} hook ${agent}`), env: hookEnv };
  };
  const inOwnProcess = (command: { command: string }) => ({ ...command, env: ownProcess });
  // A long session: 200 files' records already injected (one record file per hook call, as a session writes them).
  const longSession = new SessionStore(hookState);
  for (let i = 0; i < 200; i++) await longSession.recordInjected(`${size.name}-long`, [{ key: join(tree.root, `earlier/file-${i}.md`), hash: String(i) }]);
  const longEvent = join(states, `${size.name}-long.json`);
  writeFileSync(
    longEvent,
    JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: `${size.name}-long`, cwd: tree.root, prompt: `fix the retry in ${tree.target}` }),
  );
  const core = [
    { command: "node -e 0" },
    { command: `${ctx} build --files ${tree.target}` },
    eventFile("UserPromptSubmit", { prompt: `fix the retry in ${tree.target}` }),
    eventFile("PostToolUse", { tool_name: "Read", tool_input: { file_path: join(tree.root, tree.target) } }),
    eventFile("SessionStart", { source: "startup" }),
    { command: `${ctx} hook claude < ${longEvent}`, env: hookEnv },
    inOwnProcess(eventFile("UserPromptSubmit", { prompt: `fix the retry in ${tree.target}` }, "claude", "claude-own")),
    inOwnProcess(eventFile("PostToolUse", { tool_name: "Read", tool_input: { file_path: join(tree.root, tree.target) } }, "claude", "claude-own")),
    { ...eventFile("UserPromptSubmit", { prompt: `fix the retry in ${tree.target}` }, "claude", "claude-embeddings"), env: withEmbeddings },
  ];
  const events = hostEvents(tree, eventFile);
  // All take turns in one loop, so the hosts' rows are measured against the same node -e 0 as the main table.
  const timings = sideBySide(tree.root, [...core, ...events.map((e) => e.command)], START_RUNS);
  const [floor, targeted, hook, postTool, sessionStart, long, hookOwn, postToolOwn, hookEmbeddings] = timings as [
    Timing,
    Timing,
    Timing,
    Timing,
    Timing,
    Timing,
    Timing,
    Timing,
    Timing,
  ];
  // The same prompt hook served inside a PID namespace, with the bench's server alive outside it (pid-namespace.ts):
  // its ratio is to node -e 0 measured in that namespace, taking turns.
  const pidns = servedInPidNamespace(
    BIN,
    tree.root,
    START_RUNS,
    (run) =>
      JSON.stringify({
        hook_event_name: "UserPromptSubmit",
        session_id: `${size.name}-pidns-${run}`,
        cwd: tree.root,
        prompt: `fix the retry in ${tree.target}`,
      }),
    join(states, `${size.name}-pidns.json`),
    hookEnv,
  );
  if (pidns === null) notes.push(`${size.name}: the PID-namespace row needs root and unshare -n -p --fork --mount-proc: not measured`);
  else
    notes.push(
      `${size.name}: prompt hook in a PID namespace: ${fmt(pidns.hook.ms)} ms vs node -e 0 there ${fmt(pidns.floor.ms)} ms; its last call ${pidns.served ? "answered by the namespace's hook server" : `NOT served: ${pidns.stderr.trim()}`}`,
    );
  const pidnsRatio = (pick: (t: Timing) => number) => (pidns === null ? "-" : ratio(pick(pidns.hook), pick(pidns.floor)));
  notes.push(
    `${size.name}: prompt hook, own process, with embeddings against the local fake server: ${fmt(hookEmbeddings.ms)} ms vs ${fmt(hookOwn.ms)} ms without ` +
      `(+${fmt(hookEmbeddings.ms - hookOwn.ms)} ms by medians, +${fmt(hookEmbeddings.fastest - hookOwn.fastest)} ms by fastest runs)`,
  );
  events.forEach((e, i) => {
    const t = timings[core.length + i]!;
    hostRatios.set(e.label, [...(hostRatios.get(e.label) ?? []), `${ratio(t.ms, floor.ms)} / ${ratio(t.fastest, floor.fastest)}`]);
  });
  // repomix takes turns with them: as a user runs it, its defaults (the secret check included, as ctxinject redacts),
  // markdown like ctxinject's.
  // coverage (issue 34: every folder x agent of the tree) takes turns with the build --all it starts from.
  const [all, shell, coverage, peer] = sideBySide(
    tree.root,
    [
      { command: `${ctx} build --all` },
      { command: `git ls-files -z -- ${PATHSPECS} | xargs -0 cat > /dev/null` },
      { command: `${ctx} coverage --format json > /dev/null` },
      ...(repomix ? [{ command: `${repomix} --include '${GLOBS}' --style markdown --quiet -o /dev/null` }] : []),
    ],
    RUNS,
  ) as [Timing, Timing, Timing, Timing | undefined];
  const plainTargeted = measure(plain.root, `${ctx} build --files ${plain.target}`);
  const plainAll = measure(plain.root, `${ctx} build --all`);
  rows.push([
    size.name,
    String(tree.files),
    fmt(floor.ms),
    fmt(targeted.ms),
    ratio(targeted.ms, floor.ms),
    fmt(hook.ms),
    ratio(hook.ms, floor.ms),
    pidnsRatio((t) => t.ms),
    ratio(postTool.ms, floor.ms),
    ratio(sessionStart.ms, floor.ms),
    ratio(long.ms, floor.ms),
    ratio(hookOwn.ms, floor.ms),
    ratio(postToolOwn.ms, floor.ms),
    fmt(plainTargeted.ms),
    fmt(all.ms),
    fmt(shell.ms),
    ratio(all.ms, shell.ms),
    (all.ms / (tree.files / 1000)).toFixed(1),
    fmt(plainAll.ms),
    all.rssMiB === null ? "-" : all.rssMiB.toFixed(0),
    fmt(coverage.ms),
    ratio(coverage.ms, all.ms),
    coverage.cpuMs === null || all.cpuMs === null ? "-" : ratio(coverage.cpuMs, all.cpuMs),
    coverage.rssMiB === null ? "-" : coverage.rssMiB.toFixed(0),
  ]);
  const byFastest = (t: Timing) => ratio(t.fastest, floor.fastest);
  fastestRows.push([
    size.name,
    fmt(floor.fastest),
    byFastest(targeted),
    byFastest(hook),
    pidnsRatio((t) => t.fastest),
    ...[postTool, sessionStart, long, hookOwn, postToolOwn].map(byFastest),
  ]);
  if (peer) {
    notes.push(
      `${size.name}: repomix ${fmt(peer.ms)} ms vs ctxinject build --all ${fmt(all.ms)} ms: ctxinject ${(peer.ms / all.ms).toFixed(1)}x faster by medians, ` +
        `${(peer.fastest / all.fastest).toFixed(1)}x by fastest runs (${fmt(peer.fastest)} vs ${fmt(all.fastest)} ms; target >= 10x)`,
    );
  }
}

// Issue 46's wide monorepo (wide.ts): --all over 5,108 instruction files that all resemble each other, against the
// same git floor, taking turns; build --files against node -e 0, taking turns.
const wideRows: string[][] = [];
if (WANTED.includes("wide")) {
  console.error("bench: wide: generating (the first time: about a minute)…");
  const wide = generateWide(TREES);
  console.error(`bench: wide: ${wide.files} tracked files; measuring…`);
  const [floor, targeted] = sideBySide(wide.root, [{ command: "node -e 0" }, { command: `${ctx} build --files ${wide.target}` }], START_RUNS) as [
    Timing,
    Timing,
  ];
  const [all, shell] = sideBySide(
    wide.root,
    [{ command: `${ctx} build --all` }, { command: `git ls-files -z -- ${PATHSPECS} | xargs -0 cat > /dev/null` }],
    RUNS,
  ) as [Timing, Timing];
  wideRows.push([
    "wide",
    String(wide.files),
    fmt(floor.ms),
    fmt(targeted.ms),
    `${ratio(targeted.ms, floor.ms)} / ${ratio(targeted.fastest, floor.fastest)}`,
    fmt(all.ms),
    fmt(shell.ms),
    `${ratio(all.ms, shell.ms)} / ${ratio(all.fastest, shell.fastest)}`,
    all.cpuMs === null || shell.cpuMs === null ? "-" : ratio(all.cpuMs, shell.cpuMs),
    all.rssMiB === null ? "-" : all.rssMiB.toFixed(0),
  ]);
}

const printTable = (header: string[], body: string[][]) => {
  const table = [header, ...body];
  const widths = header.map((_, i) => Math.max(...table.map((r) => (r[i] ?? "").length)));
  console.log(table.map((r) => r.map((c, i) => c.padStart(widths[i]!)).join("  ")).join("\n"));
};
const header = [
  "size",
  "files",
  "node -e 0",
  "build --files",
  "ratio (<=1.25)",
  "hook claude",
  "ratio (<=1.3)",
  "in a PID namespace (<=1.3)",
  "PostToolUse",
  "SessionStart",
  "200 injected",
  "prompt, own process",
  "PostToolUse, own process",
  "--files no git",
  "build --all",
  "git ls-files|cat",
  "ratio (<=2.5)",
  "ms per 1k files",
  "--all no git",
  "peak RSS MiB (<=100)",
  "coverage json",
  "coverage/--all (<=3)",
  "by CPU",
  "coverage RSS MiB",
];
printTable(header, rows);
for (const note of notes) console.log(note);
console.log("\nthe same start-up ratios by each command's fastest run (noise on a shared machine only adds time):");
printTable(
  [
    "size",
    "node -e 0",
    "build --files",
    "hook claude",
    "in a PID namespace",
    "PostToolUse",
    "SessionStart",
    "200 injected",
    "prompt, own process",
    "PostToolUse, own process",
  ],
  fastestRows,
);
console.log("\neach host's hook events, ratio to node -e 0 by medians / by fastest runs (the same loop as the table above):");
printTable(
  ["host event", ...sizes.map((s) => s.name)],
  [...hostRatios].map(([label, cells]) => [label, ...cells]),
);
if (wideRows.length > 0) {
  console.log(
    `\nthe wide monorepo (issue 46: test/bench/wide.ts), ratios by medians / by fastest runs (${START_RUNS} runs of node -e 0 and build --files taking turns, ${RUNS} of build --all and the floor; "by CPU": build --all's user+system time over the floor's):`,
  );
  printTable(
    [
      "tree",
      "tracked files",
      "node -e 0",
      "build --files",
      "ratio (<=1.25)",
      "build --all",
      "git ls-files|cat",
      "ratio (<=2.5)",
      "by CPU",
      "peak RSS MiB (<=100)",
    ],
    wideRows,
  );
}
console.log(
  `times are medians in ms of ${START_RUNS} runs (node -e 0, build --files and every hook column, taking turns) or ${RUNS} (the rest; build --all, git ls-files, coverage --format json and repomix taking turns; "by CPU" is coverage's ratio to build --all by user+system time); "no git" columns are the same tree without a repository (a walk instead of git ls-files);`,
);
console.log(
  `"hook claude" answers a UserPromptSubmit event naming the same file, in a new session each run (its first prompt); "PostToolUse" (a Read of that file) and "SessionStart" are ratios to node -e 0 too, as is each host event in the hosts' table (test/bench/host-events.ts); "200 injected": Claude Code's prompt hook in a session that has injected 200 files. Hooks are answered by the hook server as a user's are after their first call; "in a PID namespace" is the same prompt hook run inside unshare -n -p --fork --mount-proc while the bench's server lives outside it in the same spool root, its ratio to node -e 0 measured in that namespace (test/bench/pid-namespace.ts); "own process" columns are Claude Code's prompt and PostToolUse hooks with the server off (CTXINJECT_HOOK_SERVER=0).`,
);
// The fake server child and its pipe keep the event loop alive: the run ends here.
fakeServer.kill();
