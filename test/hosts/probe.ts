/**
 * What the probe suites of the hosts without a ctxinject adapter yet share: a project whose instruction files each
 * carry a marker (fixtures/native-instructions), a logging hook (probe-hook.mjs) installed the host's own way, and
 * the events it recorded. They prove what a host loads by itself and which event's text reaches the model — the
 * facts test/hosts/PROFILES.md records for the adapters.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as assert from "uvu/assert";
import { materialize, REPO, runCli } from "../helpers/cli.js";
import { agentTurns, count, lastAgentTurn, type Outcome } from "./harness.js";

/** Every marker of fixtures/native-instructions, by the file that carries it. */
export const NATIVE = {
  agents: "MARK-N-AGENTS",
  claude: "MARK-N-CLAUDE",
  gemini: "MARK-N-GEMINI",
  qwen: "MARK-N-QWEN",
  copilot: "MARK-N-COPILOT",
  copilotScoped: "MARK-N-COPILOT-SCOPED",
  clinerules: "MARK-N-CLINERULES",
  cursor: "MARK-N-CURSOR",
  kiloRules: "MARK-N-KILO-RULES",
  apiAgents: "MARK-N-API-AGENTS",
  apiClaude: "MARK-N-API-CLAUDE",
  apiGemini: "MARK-N-API-GEMINI",
} as const;

/**
 * The fixture's skills, one per skills folder a host might read (ctxinject itself reads the first three and
 * configured folders): each description carries `MARK-S-<NAME>-DESC`, each body `MARK-S-<NAME>-BODY`.
 */
export const SKILLS = {
  ".claude/skills": "MARK-S-CLAUDE",
  ".agents/skills": "MARK-S-AGENTS",
  ".github/skills": "MARK-S-GITHUB",
  ".qwen/skills": "MARK-S-QWEN",
  ".factory/skills": "MARK-S-FACTORY",
  ".cline/skills": "MARK-S-CLINE",
  ".kilo/skills": "MARK-S-KILO",
  ".kilocode/skills": "MARK-S-KILOCODE",
  ".opencode/skills": "MARK-S-OPENCODE",
} as const;

/** The skills folders whose skills' descriptions are in `text`. */
export const skillsIn = (text: string): string[] =>
  Object.entries(SKILLS)
    .filter(([, marker]) => text.includes(`${marker}-DESC`))
    .map(([folder]) => folder);

/** The nested file the scripted tool call reads: its folder holds AGENTS.md and CLAUDE.md. */
export const NESTED_FILE = "packages/api/src/handler.ts";

/** An `apply_patch` edit of NESTED_FILE (Codex and Copilot CLI take the same patch format). */
export const NESTED_PATCH = [
  "*** Begin Patch",
  "*** Update File: packages/api/src/handler.ts",
  "@@",
  "-export function handle(): void {}",
  "+export function handle(): number {",
  "+  return 0;",
  "+}",
  "*** End Patch",
  "",
].join("\n");

/** A git copy of the fixture (hosts look for the repository root). */
export const nativeProject = (): string => materialize("native-instructions");

/** The command line that runs the logging hook for `event`, answering in `shape` (see probe-hook.mjs). */
export const hookCommand = (log: string, shape: "copilot" | "claude" | "cline", event: string): string =>
  `${JSON.stringify(process.execPath)} ${JSON.stringify(join(REPO, "test/hosts/probe-hook.mjs"))} ${JSON.stringify(log)} ${shape} ${event}`;

/** The marker a probe hook's answer for `event` carries. */
export const hookMarker = (event: string): string => `MARK-HOOK-${event}`;

export interface Fired {
  event: string;
  input: Record<string, unknown> | null;
}

/** The events the logging hook recorded, in order. */
export function fired(log: string): Fired[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Fired);
}

/** One candidate of `explain --as AGENT --json`: whether the agent's profile says it loads the file itself. */
interface ProfileRow {
  id: string;
  path: string | null;
  agent: { loads: boolean; reason: string };
}

/** The marker a fixture file carries (a skill: its description's), or undefined. */
function markerOf(root: string, path: string): string | undefined {
  return /\((MARK-[NS]-[A-Z-]+)\)/.exec(readFileSync(join(root, path), "utf8"))?.[1];
}

/** What ctxinject's profile of `agent` says the host loads itself of the project, working at its root. */
function profileView(root: string, agent: string, files: string[]): Array<{ path: string; marker: string; loads: boolean }> {
  const result = runCli(["explain", "--json", "--as", agent, ...(files.length > 0 ? ["--files", ...files] : [])], { cwd: root });
  assert.is(result.status, 0, result.stderr);
  const rows = (JSON.parse(result.stdout) as { candidates: ProfileRow[] }).candidates;
  return rows.flatMap((row) => {
    const marker = row.path === null ? undefined : markerOf(root, row.path);
    return marker === undefined ? [] : [{ path: row.path!, marker, loads: row.agent.loads }];
  });
}

/** The first agent request's body: what the host sent before any tool ran. */
export const firstTurn = (out: Outcome): string => JSON.stringify(agentTurns(out)[0]?.body ?? {});

/** Each marker of `once` arrived exactly once in `body`, each of `never` not at all. */
export function assertMarkers(body: string, once: string[], never: string[]): void {
  for (const marker of once) assert.is(count(body, marker), 1, `${marker} once`);
  for (const marker of never) assert.is(count(body, marker), 0, `${marker} never`);
}

/** The skills whose name and description the host listed at start, by folder, and that it sent no skill's body. */
export function assertSkillsListed(out: Outcome, folders: string[]): void {
  const first = firstTurn(out);
  assert.equal(skillsIn(first), folders);
  for (const marker of Object.values(SKILLS)) assert.is(count(first, `${marker}-BODY`), 0, `${marker} body`);
}

/**
 * The profile held to the real host: each file ctxinject's profile says the host loads itself arrived once in
 * the recorded request, and each file it says the host does not load arrived not at all — at start (the first
 * agent request, no file read) and after the host's tool read NESTED_FILE (the last request).
 */
export function assertProfileMatchesHost(out: Outcome, root: string, agent: string): void {
  const checks: Array<[string, string, string[]]> = [
    ["at start", firstTurn(out), []],
    [`after reading ${NESTED_FILE}`, lastAgentTurn(out), [NESTED_FILE]],
  ];
  for (const [when, body, files] of checks) {
    const view = profileView(root, agent, files);
    assert.ok(
      view.some((row) => row.loads),
      `${agent}: the profile claims some file ${when}`,
    );
    for (const { path, marker, loads } of view) {
      // With its parentheses: MARK-N-COPILOT is also the start of MARK-N-COPILOT-SCOPED.
      const seen = count(body, `(${marker})`);
      assert.is(seen, loads ? 1 : 0, `${agent} ${when}: ${path} (${marker}) — the profile says it ${loads ? "loads" : "does not load"} it itself`);
    }
  }
}
