/**
 * Conformance run over real instruction files (../shared/corpus): recreates each repository's tree shape
 * with empty files, copies the instruction files and symlinks over, runs `build --all` and `explain --all`,
 * and reports per repository what was found by kind, what could not be parsed, and how long it took.
 * A measurement, not a test: it exits non-zero only when a rule file was not found or not parsed.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { locateSource } from "../../src/core/sources/index.js";
import { BIN } from "../helpers/cli.js";
import { AGENT_FILES, corpusDir, corpusRepositories, listFiles, materializeCorpus as materialize, printTable } from "./corpus.js";

interface Candidate {
  id: string;
  source: string;
  kind: string;
  status: string;
}

const found = corpusDir();
if (found === undefined) {
  console.error("conformance: no corpus (../shared/corpus or $CTXINJECT_CORPUS); skipped");
  process.exit(0);
}
const CORPUS: string = found;

function run(args: string[], cwd: string) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1" } });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { ...result, ms };
}

/** Five source files spread over the tree, deepest first within each fifth: a realistic targeted build. */
function pickTargets(all: string[]): string[] {
  const code = all.filter((p) => /\.(ts|tsx|js|py|ps1|cs|go|rs|md|mdx)$/.test(p) && !p.includes("node_modules/"));
  const picks: string[] = [];
  for (let i = 0; i < 5 && code.length > 0; i++) {
    const slice = code.slice(Math.floor((i * code.length) / 5), Math.floor(((i + 1) * code.length) / 5));
    const deepest = slice.reduce((a, b) => (b.split("/").length > a.split("/").length ? b : a), slice[0] ?? code[0]!);
    picks.push(deepest);
  }
  return [...new Set(picks)];
}

const rows: string[][] = [];
const doctorRows: string[][] = [];
let problems = 0;
for (const name of corpusRepositories(CORPUS)) {
  const repoDir = join(CORPUS, name);
  const dir = materialize(repoDir);
  try {
    const expectedRules = listFiles(repoDir).filter((p) => locateSource(p, { agentFiles: AGENT_FILES, ruleDirs: [] })?.module.source === "rules-injector");
    const build = run(["build", "--all", "--format", "json"], dir);
    const explain = run(["explain", "--all", "--json"], dir);
    if (build.status !== 0 || explain.status !== 0) {
      problems++;
      rows.push([name, `build exit ${build.status}, explain exit ${explain.status}: ${(build.stderr || explain.stderr).split("\n")[0]}`]);
      continue;
    }
    const sample = pickTargets(readFileSync(join(repoDir, ".ALLFILES.txt"), "utf8").split("\n").filter(Boolean));
    const targeted = run(["explain", "--json", "--files", ...sample], dir);
    const targetedIncluded =
      targeted.status === 0 ? (JSON.parse(targeted.stdout) as { candidates: Candidate[] }).candidates.filter((c) => c.status === "included").length : -1;
    const candidates = (JSON.parse(explain.stdout) as { candidates: Candidate[] }).candidates;
    const entries = (JSON.parse(build.stdout) as { entries: unknown[] }).entries.length;
    const ids = new Set(candidates.map((c) => c.id));
    const missing = expectedRules.filter((p) => !ids.has(p));
    // Files the corpus lists in .ALLFILES.txt but does not hold are materialised empty (an empty SKILL.md is rightly
    // invalid): only a file the corpus holds counts as one ctxinject failed to parse.
    const held = new Set(listFiles(repoDir));
    const invalid = candidates.filter((c) => c.status === "invalid" && held.has(c.id)).map((c) => c.id);
    const warnings = build.stderr.split("\n").filter((l) => l.startsWith("ctxinject: warning:"));
    const warnedFiles = new Set(warnings.map((l) => l.replace("ctxinject: warning: ", "").split(":")[0]));
    const count = (pred: (c: Candidate) => boolean) => candidates.filter(pred).length;
    const rulesBy = (kind: string) => count((c) => c.source === "rules-injector" && c.kind === kind);
    problems += missing.length + invalid.length;
    rows.push([
      name,
      String(candidates.length),
      `${rulesBy("always")}/${rulesBy("auto")}/${rulesBy("agent-requested")}/${rulesBy("manual")}`,
      String(count((c) => c.source === "directory-agents")),
      String(count((c) => c.source === "directory-readme")),
      String(count((c) => c.status === "duplicate")),
      String(entries),
      `${warnings.length} in ${warnedFiles.size} files`,
      missing.length + invalid.length === 0 ? "none" : [...missing.map((m) => `missing ${m}`), ...invalid.map((i) => `invalid ${i}`)].join("; "),
      `${build.ms.toFixed(0)} / ${explain.ms.toFixed(0)}`,
      `${targetedIncluded} in ${targeted.ms.toFixed(0)} ms`,
    ]);
    const doctor = run(["doctor", "--json", "--fail-on", "none"], dir);
    if (doctor.status !== 0) problems++;
    const findings =
      doctor.status === 0 ? (JSON.parse(doctor.stdout) as { findings: Array<{ kind: string; file: string; line?: number; message: string }> }).findings : [];
    const kinds = new Map<string, number>();
    for (const f of findings) kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
    doctorRows.push([
      name,
      doctor.status === 0
        ? [...kinds]
            .sort()
            .map(([k, n]) => `${k} ${n}`)
            .join(", ") || "none"
        : `exit ${doctor.status}: ${doctor.stderr.split("\n")[0]}`,
      `${doctor.ms.toFixed(0)} ms`,
    ]);
    if (process.env.VERBOSE)
      process.stderr.write(warnings.join("\n") + "\n" + findings.map((f) => `${f.kind} ${f.file}:${f.line ?? ""} ${f.message}`).join("\n") + "\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const header = [
  "repository",
  "candidates",
  "rules always/auto/agent/manual",
  "agents",
  "readmes",
  "duplicates",
  "entries",
  "warnings",
  "not found / not parsed",
  "ms build / explain",
  "5 targets: included",
];
const table = [header, header.map((h) => "-".repeat(h.length)), ...rows];
printTable(table);
console.log("\ndoctor (findings by kind):");
for (const [name = "", kinds = "", ms = ""] of doctorRows) console.log(`${name.padEnd(40)} ${ms.padStart(8)}  ${kinds}`);
process.exit(problems === 0 ? 0 : 1);
