/**
 * The real-world property suite (issue 30, "Build"): over every repository of the corpus (corpus.ts), for a fixed,
 * seeded sample of real targets and prompts per repository, checks what reaches an agent:
 *   (a) once: no entry text twice and no file under two paths, in `build --files`, in each host hook's answer
 *       (Claude Code, Codex, Gemini CLI command hooks; the opencode plugin) and in `build --all`;
 *   (b) budget: under 2k/4k/8k tokens no stronger entry is left out while a weaker one stays whole, and every
 *       left-out entry is named in the output's index;
 *   (c) clean: no raw HTML or badge/image markup outside code in what is sent;
 *   (d) stable: every case run twice gives the same bytes;
 *   (e) session: in one hook session per host (one session id, one state folder) of three prompts and two reads, no
 *       entry, entry text or index line reaches the agent twice (issue 44 item 1);
 *   (f) likely: an answer with no prompt (`build --files`, a read's hook) has no "likely relevant" tier (issue 44 item 6).
 * The CLI runs in process (dist/cli/main.js, the code the bundle is built from) so ~2,000 runs take a minute or two.
 * Prints one row per repository (pairs checked, misses per property) and exits 1 when any property missed.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, REPO } from "../helpers/cli.js";
import { allFiles, corpusDir, corpusRepositories, materializeCorpus, printTable } from "./corpus.js";
import {
  type BuildJson,
  checkBudget,
  checkClean,
  checkNoLikely,
  checkOnce,
  checkSession,
  type ExplainCandidate,
  type Miss,
  type Property,
  type SessionAnswer,
} from "./property-checks.js";

type Main = (argv: string[], ctx: unknown) => Promise<number>;
type PluginFactory = (input: unknown) => Promise<Record<string, (...args: unknown[]) => Promise<void>>>;

const BUDGETS = [2000, 4000, 8000];
const TARGETS_PER_REPO = 4;
const PROMPTS = [
  "fix the failing test in {file}",
  "add error handling to {file}",
  "refactor {file} to follow the project conventions",
  "why does {base} break the build? look at {file}",
  "write documentation for {file}",
  "review the changes to {file} before I open a pull request",
];

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** mulberry32: a small seeded generator, so every run samples the same targets and prompts. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const seedOf = (name: string) => createHash("sha256").update(name).digest().readUInt32LE(0);

/**
 * Targets a developer would touch: source files outside vendored and generated folders. Half from folders that hold
 * an instruction file of their own (nested AGENTS.md, package README, rules scoped there), half from anywhere.
 */
export function sampleTargets(name: string, paths: string[], count = TARGETS_PER_REPO): string[] {
  const next = random(seedOf(name));
  const source = paths.filter(
    (p) =>
      /\.(ts|tsx|js|jsx|mjs|py|rs|go|cs|ps1|java|kt|rb|vue|svelte|css|yml|yaml|json|toml|md)$/.test(p) &&
      !/(^|\/)(node_modules|dist|vendor|\.git)\//.test(p) &&
      !/(^|\/)(AGENTS|CLAUDE|GEMINI|README)\.md$/i.test(p),
  );
  // A repository of instruction files only (a rules collection) is still worked on: its dot-folders then count.
  const outside = source.filter((p) => !p.startsWith("."));
  const code = outside.length > 0 ? outside : source;
  const instructionDirs = new Set(
    paths.filter((p) => /(^|\/)(AGENTS|CLAUDE|GEMINI|README)\.md$/i.test(p) && p.includes("/")).map((p) => p.slice(0, p.lastIndexOf("/") + 1)),
  );
  const near = code.filter((p) => [...instructionDirs].some((d) => p.startsWith(d)));
  const picks: string[] = [];
  const pick = (from: string[]) => {
    for (let tries = 0; tries < 20 && from.length > 0; tries++) {
      const p = from[Math.floor(next() * from.length)]!;
      if (!picks.includes(p)) return void picks.push(p);
    }
  };
  for (let i = 0; i < count; i++) pick(i % 2 === 0 && near.length > 0 ? near : code);
  return picks;
}

function promptFor(name: string, target: string, i: number): string {
  const next = random(seedOf(`${name}#${i}`));
  const template = PROMPTS[Math.floor(next() * PROMPTS.length)]!;
  const base = target.slice(target.lastIndexOf("/") + 1).replace(/\.[^.]+$/, "");
  return template.replace("{file}", target).replace("{base}", base);
}

interface Tally {
  pairs: Record<Property, number>;
  misses: Record<Property, number>;
  examples: Miss[];
}

const PROPERTIES: Property[] = ["once", "budget", "named", "clean", "stable", "runs", "session", "likely"];
const zero = (): Record<Property, number> => ({ once: 0, budget: 0, named: 0, clean: 0, stable: 0, runs: 0, session: 0, likely: 0 });

/** What a command hook added for the agent ("" when it added nothing). */
const hookContext = (answer: RunResult): string =>
  answer.stdout.trim() === ""
    ? ""
    : ((JSON.parse(answer.stdout) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext ?? "");

/** The command hooks' events, as each host sends them: a prompt, and a read of a file (absolute, or relative as the host has it). */
const HOOK_EVENTS: Record<
  string,
  { prompt: [string, (prompt: string) => Record<string, unknown>]; read: [string, (abs: string, target: string) => Record<string, unknown>] }
> = {
  claude: {
    prompt: ["UserPromptSubmit", (prompt) => ({ hook_event_name: "UserPromptSubmit", prompt })],
    read: ["PostToolUse Read", (abs) => ({ hook_event_name: "PostToolUse", tool_name: "Read", tool_input: { file_path: abs } })],
  },
  codex: {
    prompt: ["UserPromptSubmit", (prompt) => ({ hook_event_name: "UserPromptSubmit", prompt })],
    read: ["PostToolUse Bash", (_, target) => ({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: `sed -n '1,80p' ${target}` } })],
  },
  gemini: {
    prompt: ["BeforeAgent", (prompt) => ({ hook_event_name: "BeforeAgent", prompt })],
    read: ["AfterTool read_file", (_, target) => ({ hook_event_name: "AfterTool", tool_name: "read_file", tool_input: { file_path: target } })],
  },
};

/** An opencode plugin instance for one session: a chat message or a read, each answering what the plugin added. */
async function opencodeSession(plugin: PluginFactory, root: string, sessionID: string) {
  process.env.CTXINJECT_HOOK_SERVER = "0";
  const client = { app: { log: async () => undefined } };
  const hooks = await plugin({ directory: root, worktree: root, client });
  let calls = 0;
  return {
    prompt: async (prompt: string): Promise<string> => {
      const id = `msg_${++calls}`;
      const output = { message: { id, sessionID, role: "user" }, parts: [{ id: `prt_${calls}`, sessionID, messageID: id, type: "text", text: prompt }] };
      await hooks["chat.message"]!({ sessionID }, output);
      return output.parts
        .filter((p) => (p as { synthetic?: boolean }).synthetic)
        .map((p) => p.text)
        .join("\n");
    },
    read: async (abs: string): Promise<string> => {
      const result = { title: "", output: "file text", metadata: {} };
      await hooks["tool.execute.after"]!({ tool: "read", sessionID, callID: `call_${++calls}`, args: { filePath: abs } }, result);
      return result.output.slice("file text".length);
    },
  };
}
const newTally = (): Tally => ({ pairs: zero(), misses: zero(), examples: [] });

function record(tally: Tally, property: Property, result: { pairs: number; misses: Miss[] }): void {
  tally.pairs[property] += result.pairs;
  tally.misses[property] += result.misses.length;
  tally.examples.push(...result.misses);
}

async function main(): Promise<number> {
  const corpus = corpusDir();
  if (corpus === undefined) {
    console.error("conformance properties: no corpus (../shared/corpus or $CTXINJECT_CORPUS); skipped");
    return 0;
  }
  const { main: cli } = (await import(join(REPO, "dist/cli/main.js"))) as { main: Main };
  const { CtxinjectPlugin } = (await import(join(REPO, "dist/integrations/opencode.js"))) as { CtxinjectPlugin: PluginFactory };
  const only = process.env.CORPUS_ONLY;
  const started = performance.now();
  const rows: Array<[string, Tally, number]> = [];
  const total = newTally();
  const stateRoot = mkdtempSync(join(tmpdir(), "ctxinject-properties-state-"));
  let states = 0;
  const freshState = () => join(stateRoot, String(++states));

  const run = async (cwd: string, argv: string[], stdin?: string, state = freshState()): Promise<RunResult> => {
    let stdout = "";
    let stderr = "";
    const ctx = {
      cwd,
      env: { ...process.env, NO_COLOR: "1", CTXINJECT_HOOK_SERVER: "0", CTXINJECT_STATE_DIR: state, XDG_CONFIG_HOME: join(stateRoot, "config") },
      stdout: { write: (chunk: string, callback?: (error?: Error | null) => void) => ((stdout += chunk), callback?.(), true) },
      stderr: { write: (chunk: string) => ((stderr += chunk), true) },
      self: BIN,
      readStdin: async () => stdin,
    };
    const code = await cli(argv, ctx);
    return { code, stdout, stderr };
  };

  for (const name of corpusRepositories(corpus)) {
    if (only && !name.includes(only)) continue;
    const repoStarted = performance.now();
    const tally = newTally();
    const root = realpathSync(materializeCorpus(join(corpus, name)));
    try {
      /** Runs a case twice (each in a fresh state folder) and checks (d); returns the first answer. */
      const twice = async (label: string, go: () => Promise<RunResult>): Promise<RunResult> => {
        const first = await go();
        tally.pairs.runs += 2;
        const second = await go();
        const same = first.code === second.code && first.stdout === second.stdout;
        record(tally, "stable", {
          pairs: 1,
          misses: same ? [] : [{ property: "stable", repo: name, label, detail: `two runs differ (${first.stdout.length} vs ${second.stdout.length} bytes)` }],
        });
        if (first.code !== 0)
          record(tally, "runs", {
            pairs: 0,
            misses: [{ property: "runs", repo: name, label, detail: `exit ${first.code}: ${first.stderr.trim().split("\n").slice(-2).join(" ")}` }],
          });
        return first;
      };
      const text = (label: string, output: string, entries?: BuildJson["entries"]) => {
        record(tally, "once", checkOnce(name, label, root, output, entries));
        record(tally, "clean", checkClean(name, label, output, entries));
      };

      // build --all: the generated-file case.
      const all = await twice("build --all", () => run(root, ["build", "--all", "--format", "json"]));
      if (all.code === 0) {
        const json = JSON.parse(all.stdout) as BuildJson;
        text("build --all", json.merged, json.entries);
      }

      const targets = sampleTargets(name, allFiles(join(corpus, name)));
      for (const [i, target] of targets.entries()) {
        const prompt = promptFor(name, target, i);
        const selection = ["--files", target, "--prompt", prompt];
        const label = (what: string) => `${what} ${target}`;

        const built = await twice(label("build --files"), () => run(root, ["build", ...selection, "--format", "json"]));
        if (built.code === 0) {
          const json = JSON.parse(built.stdout) as BuildJson;
          text(label("build --files"), json.merged, json.entries);
        }
        const bare = await twice(label("build --files (no prompt)"), () => run(root, ["build", "--files", target]));
        if (bare.code === 0) {
          text(label("build --files (no prompt)"), bare.stdout);
          record(tally, "likely", checkNoLikely(name, label("build --files (no prompt)"), bare.stdout));
        }
        for (const budget of BUDGETS) {
          const flags = [...selection, "--max-tokens", String(budget)];
          const explained = await twice(label(`explain ${budget}`), () => run(root, ["explain", "--json", ...flags]));
          const markdown = await twice(label(`build ${budget}`), () => run(root, ["build", ...flags]));
          if (explained.code !== 0 || markdown.code !== 0) continue;
          const candidates = (JSON.parse(explained.stdout) as { candidates: ExplainCandidate[] }).candidates;
          const { order, named } = checkBudget(name, label(`budget ${budget}`), [target], candidates, markdown.stdout);
          record(tally, "budget", order);
          record(tally, "named", named);
          text(label(`build ${budget}`), markdown.stdout);
        }

        // The command hooks, as each host calls them: the prompt, then a read of the target.
        const abs = join(root, target);
        for (const [agent, events] of Object.entries(HOOK_EVENTS)) {
          for (const [event, body, read] of [
            [events.prompt[0], events.prompt[1](prompt), false],
            [events.read[0], events.read[1](abs, target), true],
          ] as const) {
            const answer = await twice(label(`hook ${agent} ${event}`), () =>
              run(root, ["hook", agent], JSON.stringify({ session_id: "s-1", cwd: root, ...body })),
            );
            const context = hookContext(answer);
            text(label(`hook ${agent} ${event}`), context);
            // A read in a fresh session: no prompt has been seen, so no likely tier.
            if (read) record(tally, "likely", checkNoLikely(name, label(`hook ${agent} ${event}`), context));
          }
        }
        // opencode: its plugin in process, a chat message and a read, each in a fresh session and state folder.
        for (const event of ["chat.message", "tool.execute.after read"]) {
          const go = async (): Promise<RunResult> => {
            process.env.CTXINJECT_STATE_DIR = freshState();
            const session = await opencodeSession(CtxinjectPlugin, root, "ses_corpus");
            return { code: 0, stdout: event === "chat.message" ? await session.prompt(prompt) : await session.read(abs), stderr: "" };
          };
          const answer = await twice(label(`opencode ${event}`), go);
          text(label(`opencode ${event}`), answer.stdout);
          if (event !== "chat.message") record(tally, "likely", checkNoLikely(name, label(`opencode ${event}`), answer.stdout));
        }
      }

      // (e) one session per host: three prompts and two reads of other targets in between, so a read lands in
      // another package than the prompt before it (issue 44 item 1's shape).
      if (targets.length > 0) {
        const at = (i: number) => targets[i % targets.length]!;
        const steps: Array<["prompt", string] | ["read", string]> = [
          ["prompt", promptFor(name, at(0), 0)],
          ["read", at(1)],
          ["prompt", promptFor(name, at(1), 1)],
          ["read", at(2)],
          ["prompt", promptFor(name, at(2), 2)],
        ];
        const stepLabel = (i: number) => `${i + 1} ${steps[i]![0]}${steps[i]![0] === "read" ? ` ${steps[i]![1]}` : ""}`;
        for (const [agent, events] of Object.entries(HOOK_EVENTS)) {
          const state = freshState();
          const answers: SessionAnswer[] = [];
          for (const [i, [kind, value]] of steps.entries()) {
            const body = kind === "prompt" ? events.prompt[1](value) : events.read[1](join(root, value), value);
            const answer = await run(root, ["hook", agent], JSON.stringify({ session_id: "s-session", cwd: root, ...body }), state);
            tally.pairs.runs++;
            if (answer.code !== 0)
              record(tally, "runs", {
                pairs: 0,
                misses: [{ property: "runs", repo: name, label: `session hook ${agent} ${stepLabel(i)}`, detail: `exit ${answer.code}` }],
              });
            answers.push({ step: stepLabel(i), output: hookContext(answer) });
          }
          record(tally, "session", checkSession(name, `session hook ${agent}`, answers));
        }
        process.env.CTXINJECT_STATE_DIR = freshState();
        const session = await opencodeSession(CtxinjectPlugin, root, "ses_session");
        const answers: SessionAnswer[] = [];
        for (const [i, [kind, value]] of steps.entries()) {
          answers.push({ step: stepLabel(i), output: kind === "prompt" ? await session.prompt(value) : await session.read(join(root, value)) });
          tally.pairs.runs++;
        }
        record(tally, "session", checkSession(name, "session opencode", answers));
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    const ms = performance.now() - repoStarted;
    rows.push([name, tally, ms]);
    for (const p of PROPERTIES) {
      total.pairs[p] += tally.pairs[p];
      total.misses[p] += tally.misses[p];
    }
    total.examples.push(...tally.examples);
    process.stderr.write(`${name}: ${(ms / 1000).toFixed(1)} s\n`);
  }
  rmSync(stateRoot, { recursive: true, force: true });

  const header = ["repository", ...PROPERTIES.map((p) => `${p} pairs/misses`), "s"];
  const cells = (t: Tally) => PROPERTIES.map((p) => `${t.pairs[p]}/${t.misses[p]}`);
  const table = [
    header,
    ...rows.map(([name, t, ms]) => [name, ...cells(t), (ms / 1000).toFixed(1)]),
    ["total", ...cells(total), ((performance.now() - started) / 1000).toFixed(1)],
  ];
  printTable(table);
  const failedRepos = rows.filter(([, t]) => PROPERTIES.some((p) => t.misses[p] > 0)).length;
  const shown = process.env.VERBOSE ? total.examples : total.examples.slice(0, 40);
  if (shown.length > 0)
    console.log(`\nmisses${shown.length < total.examples.length ? ` (first ${shown.length} of ${total.examples.length}; VERBOSE=1 for all)` : ""}:`);
  for (const m of shown) console.log(`  [${m.property}] ${m.repo}: ${m.label}: ${m.detail}`);
  // Read by .ci/run: one pass or fail per repository.
  console.log(`\nproperty suite: ${rows.length - failedRepos} repositories passed, ${failedRepos} failed`);
  return failedRepos === 0 ? 0 : 1;
}

process.exitCode = await main();
