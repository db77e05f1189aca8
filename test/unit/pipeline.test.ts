import { test } from "uvu";
import * as assert from "uvu/assert";
import { defaultConfig } from "../../src/core/config.js";
import { fingerprint } from "../../src/core/fingerprint.js";
import { createRunMemo } from "../../src/core/run-memo.js";
import type { WarmData } from "../../src/core/warm.js";
import { approxTokens } from "../../src/core/tokens.js";
import { IO_DEPS, runPipeline, type PipelineDeps } from "../../src/io/pipeline.js";
import { SessionStore, type InjectedRecord, type InjectedRecords } from "../../src/io/session/session-store.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

/**
 * The pipeline with every I/O step faked: no disk, no git, no session store. A root with AGENTS.md and one Cursor
 * rule for TypeScript files; the calls are recorded in order.
 */
function fakeDeps(calls: string[]): PipelineDeps {
  const step =
    <A extends unknown[], R>(name: string, answer: (...args: A) => R) =>
    (...args: A): R => {
      calls.push(name);
      return answer(...args);
    };
  const files: Record<string, string> = {
    "AGENTS.md": "# Agents\nRun the tests before committing.\n",
    ".cursor/rules/ts.mdc": "---\nglobs: src/**/*.ts\n---\nUse strict TypeScript.\n",
  };
  return {
    findRoot: step("root", () => ({ root: "/fake", gitTop: null })),
    loadConfig: step("config", async () => ({ config: defaultConfig(), file: null, userFile: null, origins: {}, warnings: [] })),
    resolveTargets: step("targets", (_cwd, _root, _top, options) => ({ targets: [...(options.files ?? [])], warnings: [] })),
    promptTargets: step("prompt targets", () => []),
    loadTokenizer: step("tokenizer", async () => approxTokens),
    loadRunMemo: step("memo", () => ({ memo: createRunMemo(), save: () => undefined })),
    discover: step("discover", async () => ({ paths: Object.keys(files).sort(), also: [], warnings: [] })),
    readSourceFiles: step("read", (_root, paths) => ({ files: paths.map((path) => ({ path, text: files[path]! })), warnings: [] })),
    readImports: step("imports", () => ({ files: [], warnings: [] })),
    readCustomEntries: step("custom", () => ({ entries: [], warnings: [] })),
    agentProfileAt: step("agent settings", () => ({ profile: undefined, warnings: [] })),
    profileForAs: step("as", () => undefined),
    sessions: () => {
      throw new Error("no session was asked for");
    },
    promptEmbeddings: step("embeddings", async () => ({ warnings: [] })),
  };
}

const run = { cwd: "/fake", env: {}, platform: "linux" as const };

test("a build runs its phases in order on injected deps and composes what they read, without touching the disk", async () => {
  const calls: string[] = [];
  const selected = await runPipeline(run, { purpose: "build", files: ["src/a.ts"] }, fakeDeps(calls));
  assert.equal(calls, ["root", "config", "targets", "tokenizer", "memo", "discover", "read", "imports", "custom", "as"]);
  assert.ok(selected.output.includes("Run the tests before committing."), selected.output);
  assert.ok(selected.output.includes("Use strict TypeScript."), selected.output);
  assert.equal(
    selected.candidates.map((c) => [c.path, c.status]),
    [
      [".cursor/rules/ts.mdc", "included"],
      ["AGENTS.md", "included"],
    ],
  );
  await selected.finish();
});

test("doctor and coverage stop after select: the selection, no block, no session", async () => {
  for (const purpose of ["doctor", "coverage"] as const) {
    const calls: string[] = [];
    const gathered = await runPipeline(run, { purpose, all: true }, fakeDeps(calls));
    assert.equal(calls, ["root", "config", "targets", "tokenizer", "memo", "discover", "read", "imports", "custom"], purpose);
    assert.is(gathered.root, "/fake");
    assert.equal(
      gathered.files.map((f) => f.path),
      [".cursor/rules/ts.mdc", "AGENTS.md"],
    );
    assert.not.ok("output" in gathered);
  }
});

test("a hook's first call in a new session claims its texts and its warning at once: one claim, one temp file", async () => {
  const dir = folder("pipeline");
  // Each claim writes a temp file and links it under every record's name: what a new session's first call pays.
  const claims: string[][] = [];
  class CountingStore extends SessionStore {
    override claimInjected(session: string, records: InjectedRecord[], seen?: InjectedRecords) {
      claims.push(records.map((r) => r.key));
      return super.claimInjected(session, records, seen);
    }
  }
  const store = new CountingStore(dir);
  const deps: PipelineDeps = {
    ...fakeDeps([]),
    readSourceFiles: (_root, paths) => ({
      files: paths.map((path) => ({
        path,
        text: path === "AGENTS.md" ? "# Agents\nRun the tests.\n" : "---\nglobs: src/**/*.ts\n---\nUse strict TypeScript.\n",
      })),
      warnings: [{ file: "AGENTS.md", line: 1, message: "a warning shown once" }],
    }),
    sessions: () => store,
  };
  const first = await runPipeline(run, { purpose: "hook", files: ["src/a.ts"], session: "s1", limits: () => ({ once: true }) }, deps);
  await first.finish();
  assert.ok(first.output.includes("Use strict TypeScript."), first.output);
  assert.equal(
    first.warnings.map((w) => w.message),
    ["a warning shown once"],
  );
  assert.is(claims.length, 1, JSON.stringify(claims));
  assert.is(claims[0]!.length, 3, JSON.stringify(claims));
  // Given once: the session's next call gives neither the texts nor the warning again.
  const second = await runPipeline(run, { purpose: "hook", files: ["src/a.ts"], session: "s1", limits: () => ({ once: true }) }, deps);
  assert.not.ok(second.output.includes("Use strict TypeScript."), second.output);
  assert.equal(second.warnings, []);
});

test("the texts a hook gave are saved with their fingerprints, and the next run's session claims them by those", async () => {
  const dir = folder("pipeline");
  let saved: WarmData | undefined;
  const store = new SessionStore(dir);
  const deps = (): PipelineDeps => ({
    ...fakeDeps([]),
    loadRunMemo: () => {
      const memo = createRunMemo(saved);
      return { memo, save: () => void (saved = memo.warm.takeChanges() ?? saved) };
    },
    sessions: () => store,
  });
  const request = (session: string) => ({ purpose: "hook" as const, files: ["src/a.ts"], session, limits: () => ({ once: true }) });
  await (await runPipeline(run, request("s1"), deps())).finish();
  assert.equal(saved?.hashes, {
    "Use strict TypeScript.": fingerprint("Use strict TypeScript."),
    "# Agents\nRun the tests before committing.": fingerprint("# Agents\nRun the tests before committing."),
  });
  // A wrong saved fingerprint shows that the next run takes it instead of hashing: its record has that name.
  saved!.hashes!["Use strict TypeScript."] = "0000000000000000000000000000";
  await (await runPipeline(run, request("s2"), deps())).finish();
  assert.ok((await store.injected("s2")).has("/fake/.cursor/rules/ts.mdc", "0000000000000000000000000000"));
});

test("the default deps are the real I/O steps", () => {
  assert.equal(Object.keys(IO_DEPS).sort(), Object.keys(fakeDeps([])).sort());
});

test.run();
