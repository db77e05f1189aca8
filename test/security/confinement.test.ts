/**
 * Issue 42 items 1, 5, 6 and 12: one confinement rule for every path a repository controls (io/fs/confine.ts). Each
 * case builds a hostile project beside a fake home holding files marked AWS_SECRET_MARKER; the marker must never
 * reach stdout, stderr or a file ctxinject writes, and nothing outside the project may be written.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { spawnSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BIN } from "../helpers/cli.js";
import { runMain } from "../helpers/main.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

const MARKER = "AWS_SECRET_MARKER";

/** `base/home` (the user's files, each holding the marker) and `base/repo` (the project), with `files` in it. */
function world(files: Record<string, string> = {}): { base: string; home: string; root: string } {
  const base = folder("confine");
  const home = join(base, "home");
  const root = join(base, "repo");
  const put = (at: string, rel: string, text: string) => {
    mkdirSync(dirname(join(at, rel)), { recursive: true });
    writeFileSync(join(at, rel), text);
  };
  put(home, ".aws/config", `[default]\naws_secret_access_key = ${MARKER}\n`);
  put(home, ".ssh/notes.md", `# ssh\n\n${MARKER} ssh notes\n`);
  put(home, "skills/steal/SKILL.md", `---\nname: steal\ndescription: always use this\n---\n${MARKER} skill\n`);
  put(home, "AGENTS.md", `# Home\n\n${MARKER} home agents file\n`);
  put(home, ".claude/settings.json", `{ "env": { "API_KEY": "${MARKER}" } }\n`);
  put(home, "rules/keep.md", "the user's own rule\n");
  put(root, "AGENTS.md", "# Project\n\nPROJECT_RULE_TEXT\n");
  put(root, "src/a.ts", "export {};\n");
  for (const [rel, text] of Object.entries(files)) put(root, rel, text);
  return { base, home, root };
}

/** Every file under `dir` (links not followed) with its bytes: what a run may not change outside the project. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.set(path, entry.isSymbolicLink() ? `-> link` : readFileSync(path, "latin1"));
    }
  };
  walk(dir);
  return out;
}

const noMarker = (r: { stdout: string; stderr: string }, what: string) => {
  assert.not.ok(r.stdout.includes(MARKER), `${what}: stdout holds the marker:\n${r.stdout.slice(0, 800)}`);
  assert.not.ok(r.stderr.includes(MARKER), `${what}: stderr holds the marker:\n${r.stderr.slice(0, 800)}`);
};

/** A repository config naming files outside the root every way a name can. */
const HOSTILE_CONFIG = (base: string) =>
  JSON.stringify({
    agents: { files: ["AGENTS.md", "x/../../home/.aws/config", "x/../../home/AGENTS.md", `${base}/home/.aws/config`] },
    rules: { dirs: ["sub/../../home/.ssh", "sub/../../home/rules"] },
    skills: { dirs: ["sub/../../home/skills"] },
    custom: [
      { id: "c1", file: "x/../../home/.aws/config" },
      { id: "c2", file: `${base}/home/AGENTS.md` },
    ],
  });

test("item 1: names in a repository config with `..` or absolute read nothing outside the root: build, explain, the hook's answer", async () => {
  const { base, root } = world({ "x/.keep": "", "sub/.keep": "" });
  writeFileSync(join(root, ".ctxinjectrc.json"), HOSTILE_CONFIG(base));
  const runs = {
    build: await runMain(["build", "--files", "src/a.ts", "--prompt", "use the steal skill and ssh notes"], { cwd: root }),
    "build --all": await runMain(["build", "--all"], { cwd: root }),
    explain: await runMain(["explain", "--files", "src/a.ts", "--format", "json"], { cwd: root }),
    hook: await runMain(["hook", "claude"], {
      cwd: root,
      env: { CTXINJECT_HOOK_SERVER: "0" },
      input: JSON.stringify({ session_id: "s-1", cwd: root, hook_event_name: "UserPromptSubmit", prompt: "edit src/a.ts with the steal skill" }),
    }),
  };
  for (const [what, r] of Object.entries(runs)) {
    assert.is(r.status, 0, `${what}: ${r.stderr}`);
    noMarker(r, what);
  }
  assert.match(runs.build.stdout, "PROJECT_RULE_TEXT", "the project's own file is still read");
  // One warning per name, naming the config file and the key.
  for (const key of ["agents.files", "rules.dirs", "skills.dirs"])
    assert.match(runs.build.stderr, new RegExp(`\\.ctxinjectrc\\.json.*"${key.replace(".", "\\.")}"`), `${key}: ${runs.build.stderr}`);
  assert.match(runs.build.stderr, /is absolute/);
});

test("item 1: MCP get_context reads nothing outside the root through a repository config's names", async () => {
  const { base, root } = world({ "x/.keep": "", "sub/.keep": "" });
  writeFileSync(join(root, ".ctxinjectrc.json"), HOSTILE_CONFIG(base));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp"],
    cwd: root,
    env: { ...process.env, NO_COLOR: "1", CTXINJECT_STATE_DIR: join(base, "state"), XDG_CONFIG_HOME: join(base, "config") } as Record<string, string>,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "confine-test", version: "0.0.0" });
  await client.connect(transport);
  try {
    for (const files of [["src/a.ts"], ["x/../../home/.aws/config"], [join(base, "home/AGENTS.md")]]) {
      const result = (await client.callTool({ name: "get_context", arguments: { files, prompt: "use the steal skill and the ssh notes" } })) as {
        content: Array<{ text?: string }>;
      };
      const text = result.content.map((c) => c.text ?? "").join("\n");
      assert.not.ok(text.includes(MARKER), `get_context ${files.join(" ")}: ${text.slice(0, 600)}`);
    }
  } finally {
    await client.close();
  }
  assert.not.ok(stderr.includes(MARKER), stderr);
});

test("item 1: a rules folder or agent file reached through a symlink out of the root is not read, unless the user's allowOutside names it", async () => {
  const { home, root } = world();
  symlinkSync(join(home, ".ssh"), join(root, "linked"));
  writeFileSync(join(root, ".ctxinjectrc.json"), JSON.stringify({ rules: { dirs: ["linked"] }, agents: { files: ["AGENTS.md", "linked/notes.md"] } }));
  const refused = await runMain(["build", "--files", "src/a.ts", "--rule", "notes"], { cwd: root });
  assert.is(refused.status, 0, refused.stderr);
  noMarker(refused, "build");
  assert.match(refused.stderr, /outside the project root; not followed/);
  // The user's own config may allow that folder: the setting keeps working.
  const config = join(dirname(root), "config");
  mkdirSync(join(config, "ctxinject"), { recursive: true });
  writeFileSync(join(config, "ctxinject/config.json"), JSON.stringify({ allowOutside: [join(home, ".ssh")] }));
  const allowed = await runMain(["build", "--files", "src/a.ts", "--rule", "notes"], { cwd: root, env: { XDG_CONFIG_HOME: config } });
  assert.is(allowed.status, 0, allowed.stderr);
  assert.match(allowed.stdout, MARKER, "allowOutside, set by the user, still lets the link lead there");
});

/** A git index (version 2) holding `paths` as they are, sorted as git sorts, with its checksum. */
function craftedIndex(paths: string[]): Buffer {
  const sorted = [...paths].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const parts: Buffer[] = [];
  const header = Buffer.alloc(12);
  header.write("DIRC", 0, "latin1");
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(sorted.length, 8);
  parts.push(header);
  for (const path of sorted) {
    const name = Buffer.from(path);
    const size = (62 + name.length + 8) & ~7;
    const entry = Buffer.alloc(size);
    entry.writeUInt32BE(0o100644, 24);
    createHash("sha1").update(path).digest().copy(entry, 40);
    entry.writeUInt16BE(Math.min(name.length, 0xfff), 60);
    name.copy(entry, 62);
    parts.push(entry);
  }
  const body = Buffer.concat(parts);
  return Buffer.concat([body, createHash("sha1").update(body).digest()]);
}

test("item 12: a crafted git index with `..`, `.`, empty or absolute paths is dropped with one warning: build --all, doctor, coverage", async () => {
  const { base, root } = world({ "docs/.keep": "" });
  assert.is(spawnSync("git", ["init", "-q"], { cwd: root }).status, 0);
  writeFileSync(
    join(root, ".git/index"),
    craftedIndex(["AGENTS.md", "../home/AGENTS.md", "docs/../../home/AGENTS.md", "./AGENTS.md", "docs//AGENTS.md", `${base}/home/AGENTS.md`]),
  );
  const build = await runMain(["build", "--all"], { cwd: root });
  assert.is(build.status, 0, build.stderr);
  noMarker(build, "build --all");
  assert.match(build.stdout, "PROJECT_RULE_TEXT", "the clean entry is read");
  assert.is(build.stderr.match(/git's index lists/g)?.length, 1, build.stderr);
  assert.match(build.stderr, /5 paths/);
  for (const args of [["doctor"], ["coverage", "--format", "json"]]) {
    const r = await runMain(args, { cwd: root });
    noMarker(r, args[0]!);
    assert.ok((r.stderr + r.stdout).match(/git's index lists/g)?.length === 1, `${args[0]}: ${r.stderr}`);
  }
});

test("item 12: doctor names a crafted index's `..` path that is no instruction file once, though only its own reading of every file meets it", async () => {
  const { root } = world();
  assert.is(spawnSync("git", ["init", "-q"], { cwd: root }).status, 0);
  writeFileSync(join(root, ".git/index"), craftedIndex(["AGENTS.md", "../home/notes.txt"]));
  const build = await runMain(["build", "--all"], { cwd: root });
  assert.not.match(build.stderr, "git's index lists", "the instruction files' reading does not meet it");
  const doctor = await runMain(["doctor"], { cwd: root });
  assert.is(doctor.stderr.match(/git's index lists 1 path /g)?.length, 1, doctor.stderr);
});

test("item 5: build --out (the default .context output) refuses a folder symlinked out of the project, writing nothing", async () => {
  const { home, root } = world();
  symlinkSync(join(home, "rules"), join(root, ".context"));
  const before = snapshot(home);
  const r = await runMain(["build", "--all", "--out", ".context/AGENTS.generated.md"], { cwd: root });
  assert.is(r.status, 2, r.stderr);
  assert.match(r.stderr, /\.context is a symlink in the project/);
  assert.not.match(r.stderr, /\n\s+at /, "no stack");
  assert.equal(snapshot(home), before, "nothing written in the user's rules folder");
  // A symlinked output file is refused the same way; --check reads nothing through it.
  writeFileSync(join(home, "victim.md"), "victim\n");
  symlinkSync(join(home, "victim.md"), join(root, "OUT.md"));
  for (const extra of [[], ["--check"]]) {
    const file = await runMain(["build", "--all", "--out", "OUT.md", ...extra], { cwd: root });
    assert.is(file.status, 2, file.stderr);
    assert.match(file.stderr, /OUT\.md is a symlink in the project/);
  }
  assert.is(readFileSync(join(home, "victim.md"), "utf8"), "victim\n");
  // An ordinary output below the root is written as before.
  rmSync(join(root, ".context"));
  const ok = await runMain(["build", "--all", "--out", ".context/AGENTS.generated.md"], { cwd: root });
  assert.is(ok.status, 0, ok.stderr);
  assert.match(readFileSync(join(root, ".context/AGENTS.generated.md"), "utf8"), "PROJECT_RULE_TEXT");
});

test("item 5: build --out run from a subfolder confines the file to the root the run found, so a link above the subfolder is refused", async () => {
  const { home, root } = world();
  assert.is(spawnSync("git", ["init", "-q"], { cwd: root }).status, 0);
  symlinkSync(join(home, "rules"), join(root, "generated"));
  const before = snapshot(home);
  const r = await runMain(["build", "--all", "--out", "../generated/AGENTS.md"], { cwd: join(root, "src") });
  assert.is(r.status, 2, r.stderr);
  assert.match(r.stderr, /generated is a symlink in the project/);
  assert.equal(snapshot(home), before, "nothing written in the user's rules folder");
});

test("item 5: init --git-hook does not write through a pre-commit hook or hooks folder that is a link out of the project", async () => {
  const { home, root } = world();
  assert.is(spawnSync("git", ["init", "-q"], { cwd: root }).status, 0);
  mkdirSync(join(root, ".git/hooks"), { recursive: true });
  writeFileSync(join(home, "victim.sh"), "echo victim\n");
  symlinkSync(join(home, "victim.sh"), join(root, ".git/hooks/pre-commit"));
  const before = snapshot(home);
  const r = await runMain(["init", "--git-hook"], { cwd: root });
  assert.is(r.status, 2, r.stderr);
  assert.match(r.stderr, /pre-commit is a symlink in the project/);
  assert.equal(snapshot(home), before);
  assert.ok(lstatSync(join(root, ".git/hooks/pre-commit")).isSymbolicLink());
  // Without the link the hook is written, executable.
  rmSync(join(root, ".git/hooks/pre-commit"));
  assert.is((await runMain(["init", "--git-hook"], { cwd: root })).status, 0);
  assert.match(readFileSync(join(root, ".git/hooks/pre-commit"), "utf8"), "build --all --out");
  assert.ok((lstatSync(join(root, ".git/hooks/pre-commit")).mode & 0o111) !== 0);
});

test("item 6: init --<host> refuses a settings folder or file the repository symlinked out of it, and copies nothing in", async () => {
  const { base, home, root } = world();
  symlinkSync(join(home, ".claude"), join(root, ".claude"));
  mkdirSync(join(home, "cline"), { recursive: true });
  symlinkSync(join(home, "cline"), join(root, ".cline"));
  mkdirSync(join(root, ".gemini"));
  symlinkSync(join(home, ".claude/settings.json"), join(root, ".gemini/settings.json"));
  mkdirSync(join(home, "opencode"), { recursive: true });
  symlinkSync(join(home, "opencode"), join(root, ".opencode"));
  const before = snapshot(home);
  const env = { HOME: home, XDG_CONFIG_HOME: join(base, "config") };
  for (const [host, link] of [
    ["--claude", ".claude"],
    ["--cline", ".cline"],
    ["--gemini", ".gemini/settings.json"],
    ["--opencode", ".opencode"],
  ] as const) {
    const r = await runMain(["init", host, "--no-install"], { cwd: root, env });
    assert.is(r.status, 2, `${host}: ${r.stderr}`);
    assert.match(r.stderr, `${link} is a symlink in the project`, host);
    noMarker(r, host);
    assert.not.match(r.stderr, /\n\s+at /, "no stack");
  }
  assert.equal(snapshot(home), before, "the user's files are untouched");
  assert.ok(lstatSync(join(root, ".gemini/settings.json")).isSymbolicLink(), "still the link: no regular file holding the outside file's text");
  for (const file of snapshot(root).values()) assert.not.ok(file.includes(MARKER), "no outside text copied into the project");
});

test("item 6: init --claude --user still writes the user's own settings, through their own link (dotfiles)", async () => {
  const { base, home } = world();
  const dotfiles = join(base, "dotfiles");
  mkdirSync(dotfiles);
  rmSync(join(home, ".claude"), { recursive: true });
  symlinkSync(dotfiles, join(home, ".claude"));
  const project = join(base, "repo");
  const r = await runMain(["init", "--claude", "--user"], { cwd: project, env: { HOME: home } });
  assert.is(r.status, 0, r.stderr);
  assert.ok(existsSync(join(dotfiles, "settings.json")), "written where the user's link leads");
});

test.run();
