/**
 * Issue 29 item 4: every read of a file a repository controls is bounded by bytes before decoding. A character
 * device, a FIFO, a symlink to /dev/zero or a huge sparse file named like an instruction file ends the run quickly,
 * with a small memory peak and one warning naming it. Devices need root (mknod); without it those cases prove
 * nothing and say so by returning early.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, rmSync, symlinkSync, writeFileSync, ftruncateSync } from "node:fs";
import { join } from "node:path";
import { BIN, REPO } from "../helpers/cli.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

/** A project with an ordinary AGENTS.md and, under the given names, a device, a FIFO, a sparse file of `sparse` bytes. */
function hostileTree(sparse = 6 * 1024 * 1024 * 1024): { root: string; devices: boolean } {
  const root = folder("reads");
  writeFileSync(join(root, "AGENTS.md"), "# Rules\n\nKeep handlers small.\n");
  mkdirSync(join(root, ".cursor/rules"), { recursive: true });
  mkdirSync(join(root, "pkg"), { recursive: true });
  // A character device (/dev/zero's numbers) and a FIFO named like instruction files.
  const device = spawnSync("mknod", [join(root, "CLAUDE.md"), "c", "1", "5"]).status === 0;
  spawnSync("mkfifo", [join(root, ".cursor/rules/pipe.mdc")]);
  // A sparse file: gigabytes on paper, nothing on disk.
  const fd = openSync(join(root, "pkg/AGENTS.md"), "w");
  ftruncateSync(fd, sparse);
  closeSync(fd);
  return { root, devices: device };
}

/**
 * Runs a command in a child with its peak RSS in KiB. A read without end must not hang the suite: coreutils'
 * timeout kills the whole process group (spawnSync's own timeout would leave the grandchild reading).
 */
function runBounded(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string; peakKiB: number; ms: number } {
  const started = Date.now();
  const r = spawnSync("timeout", ["-s", "KILL", "30", "/usr/bin/time", "-f", "PEAK %M", ...args], {
    cwd,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: "1", CTXINJECT_HOOK_SERVER: "0", CTXINJECT_STATE_DIR: join(cwd, ".state") },
  });
  const peak = /PEAK (\d+)\s*$/.exec(r.stderr ?? "");
  return {
    status: r.status,
    stdout: r.stdout ?? "",
    stderr: (r.stderr ?? "").replace(/PEAK \d+\s*$/, ""),
    peakKiB: peak ? Number(peak[1]) : Infinity,
    ms: Date.now() - started,
  };
}

test("readSourceFiles with allowOutside refuses a symlink to /dev/zero, a device, a FIFO and a sparse file quickly, one warning each", () => {
  const { root, devices } = hostileTree();
  symlinkSync("/dev/zero", join(root, "GEMINI.md"));
  const script = join(root, "read.ts");
  writeFileSync(
    script,
    `import { readSourceFiles } from ${JSON.stringify(join(REPO, "src/io/fs/read.ts"))};
const out = readSourceFiles(${JSON.stringify(root)}, ["AGENTS.md", "CLAUDE.md", "GEMINI.md", ".cursor/rules/pipe.mdc", "pkg/AGENTS.md"], { allowOutside: ["/dev"] });
console.log(JSON.stringify({ files: out.files.map((f) => f.path), warnings: out.warnings }));
`,
  );
  const r = runBounded([process.execPath, "--import", "tsx", script], REPO);
  assert.is(r.status, 0, `it finished (${r.ms} ms): ${r.stderr.slice(0, 500)}`);
  const out = JSON.parse(r.stdout) as { files: string[]; warnings: Array<{ file: string; message: string }> };
  assert.equal(out.files, ["AGENTS.md"]);
  const named = (file: string) => out.warnings.filter((w) => w.file === file);
  for (const file of ["GEMINI.md", ".cursor/rules/pipe.mdc", ...(devices ? ["CLAUDE.md"] : [])]) {
    assert.is(named(file).length, 1, `${file}: ${JSON.stringify(out.warnings)}`);
    assert.match(named(file)[0]!.message, "not a regular file");
  }
  assert.is(named("pkg/AGENTS.md").length, 1, JSON.stringify(out.warnings));
  assert.match(named("pkg/AGENTS.md")[0]!.message, /larger than \d+ bytes/);
  assert.ok(r.peakKiB < 300 * 1024, `peak RSS ${r.peakKiB} KiB`);
  assert.ok(r.ms < 15_000, `${r.ms} ms`);
});

test("build --all and a targeted build, where git's index lists files now a device, a FIFO and a 6 GB sparse file: the real rules, each bad file named once, a small peak", () => {
  const root = folder("reads");
  mkdirSync(join(root, ".cursor/rules"), { recursive: true });
  mkdirSync(join(root, "pkg"), { recursive: true });
  for (const file of ["AGENTS.md", "CLAUDE.md", ".cursor/rules/pipe.mdc", "pkg/AGENTS.md"])
    writeFileSync(join(root, file), "# Rules\n\nKeep handlers small.\n");
  spawnSync("git", ["init", "-q"], { cwd: root });
  spawnSync("git", ["add", "-A"], { cwd: root });
  // The work tree changes after git add: the index still lists each as a file.
  rmSync(join(root, "CLAUDE.md"));
  const devices = spawnSync("mknod", [join(root, "CLAUDE.md"), "c", "1", "5"]).status === 0;
  rmSync(join(root, ".cursor/rules/pipe.mdc"));
  spawnSync("mkfifo", [join(root, ".cursor/rules/pipe.mdc")]);
  const fd = openSync(join(root, "pkg/AGENTS.md"), "r+");
  ftruncateSync(fd, 6 * 1024 * 1024 * 1024);
  closeSync(fd);
  for (const args of [
    ["build", "--all"],
    ["build", "--files", "pkg/src/x.ts"],
  ]) {
    const r = runBounded([process.execPath, BIN, ...args], root);
    assert.is(r.status, 0, `${args.join(" ")} finished (${r.ms} ms): ${r.stderr.slice(0, 500)}`);
    assert.match(r.stdout, "Keep handlers small.");
    const lines = r.stderr.split("\n");
    const about = (file: string) => lines.filter((line) => line.includes(` ${file}:`));
    if (args[1] === "--all") {
      assert.is(about(".cursor/rules/pipe.mdc").length, 1, r.stderr);
      assert.match(about(".cursor/rules/pipe.mdc")[0]!, "not a regular file");
    }
    if (devices) {
      assert.is(about("CLAUDE.md").length, 1, r.stderr);
      assert.match(about("CLAUDE.md")[0]!, "not a regular file");
    }
    assert.is(about("pkg/AGENTS.md").length, 1, r.stderr);
    assert.match(about("pkg/AGENTS.md")[0]!, /larger than \d+ bytes/);
    assert.ok(r.peakKiB < 300 * 1024, `${args.join(" ")}: peak RSS ${r.peakKiB} KiB`);
  }
});

test("build --check --out refuses an output path that is a symlink to /dev/zero instead of reading it", () => {
  const { root } = hostileTree(1024);
  symlinkSync("/dev/zero", join(root, "CONTEXT.md"));
  const r = runBounded([process.execPath, BIN, "build", "--all", "--out", "CONTEXT.md", "--check"], root);
  assert.is(r.status, 2, r.stderr.slice(0, 500));
  // A symlink below the root is refused before anything is opened (io/fs/confine.ts), /dev/zero or not.
  assert.match(r.stderr, /CONTEXT\.md is a symlink in the project/);
  assert.not.match(r.stderr, /\n\s+at /, "no stack");
  assert.ok(r.peakKiB < 300 * 1024, `peak RSS ${r.peakKiB} KiB`);
});

test("a project's agent settings file that is a FIFO is named in one warning, not waited on", () => {
  const { root } = hostileTree(1024);
  mkdirSync(join(root, ".gemini"));
  spawnSync("mkfifo", [join(root, ".gemini/settings.json")]);
  spawnSync("mkfifo", [join(root, ".gitignore")]);
  spawnSync("git", ["init", "-q"], { cwd: root });
  const r = runBounded([process.execPath, BIN, "explain", "--as", "gemini-cli", "--all"], root);
  assert.is(r.status, 0, `it finished (${r.ms} ms): ${r.stderr.slice(0, 500)}`);
  assert.match(r.stderr, /\.gemini\/settings\.json: is not a regular file/);
});

test.run();
