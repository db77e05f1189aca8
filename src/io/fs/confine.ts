import { chmodSync, closeSync, constants, lstatSync, mkdirSync, openSync, realpathSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { whyUnclean } from "../../core/confined-path.js";
import { CtxinjectError } from "../../core/errors.js";
import { baseName, dirOf } from "../../core/rel-path.js";
import { BoundedReadError, deniedReason, readBoundedBytes, readBoundedText, readInTree, unreadableReason } from "./bounded-read.js";
import { randomHex } from "../lazy-node.js";
import { realOrSelf, toRootRelative, under } from "./paths.js";

/**
 * The one way a path a repository controls (a configured name, an index entry, an import, an MCP argument, a target,
 * `--out`, a host's settings file) becomes a file that is opened or written. Its rule:
 *
 * - reads: the path is clean (core/confined-path.ts) and the file's real path, links resolved, lies under the root
 *   or under a folder the user's own `allowOutside` names (a repository's config cannot set it);
 * - writes into the project: the path is clean, and no folder on the way below the root and not the file itself
 *   is a symlink (each is looked at with lstat, the file opened with O_NOFOLLOW|O_EXCL under a temp name and
 *   renamed into place), so a committed `.context -> ~/.claude/rules` or `.claude -> ~/.claude` is refused with
 *   nothing written, and an outside file's text is never read to be merged into the repository;
 * - the user's own files (`--user`, a path typed outside the project) are the user's: written as named.
 *
 * test/security/confinement-call-sites.test.ts holds every other module that opens or writes a file to a short list.
 */

/** Windows has no O_NOFOLLOW: there every read file's real path is worked out. */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** A file read through the reader: its value, and its root-relative real path where that differs from its own. */
export type ConfinedRead<T> = { value: T; realPath?: string } | { refused: string };

/**
 * Reads files below `root` by root-relative path. A folder's real path is its parent's plus its name unless it is a
 * symlink: one look per folder (isSymlinkedFolder), where realpath would walk every folder on the way down again, and
 * none per file (O_NOFOLLOW refuses a symlinked file, ELOOP, which is then resolved on its own). A clean path whose
 * folders are no links is where its path says: that proof costs nothing per file on --all's thousands.
 */
export class ConfinedReader {
  private readonly realRoot: string;
  private readonly allowed: string[];
  /** Null: the folder is where its path says (no symlink from the root down). */
  private readonly realDirs: Map<string, string | null>;

  /** `allowOutside`: the user's own setting (config `allowOutside`, resolved against the root). */
  constructor(
    private readonly root: string,
    allowOutside: readonly string[] = [],
  ) {
    this.realRoot = realOrSelf(root);
    this.allowed = allowOutside.map((p) => realOrSelf(resolve(root, p)));
    this.realDirs = new Map([["", this.realRoot === root ? null : this.realRoot]]);
  }

  /**
   * `use` given the file's bytes (the first `length`; they live in a shared buffer: keep a copy), or why the file is
   * refused with nothing read. A file that cannot be read throws (its errno code, or a BoundedReadError).
   */
  read<T>(path: string, use: (bytes: Buffer, length: number) => T): ConfinedRead<T> {
    const why = whyUnclean(path);
    if (why !== null) return { refused: `${why}; a path below the project root was expected, not read` };
    const abs = under(this.root, path);
    const folder = NO_FOLLOW === 0 ? undefined : this.realDir(dirOf(path));
    let real = folder === undefined ? realpathSync.native(abs) : folder === null ? abs : under(folder, baseName(path));
    let realRel = folder === null ? path : toRootRelative(this.realRoot, real);
    let refused = this.outside(realRel, real);
    if (refused !== null) return { refused };
    let value: T;
    try {
      // Inside the tree (the usual case) through the shared buffer; what is reached outside it, checked every time.
      value = realRel !== null && NO_FOLLOW !== 0 ? readInTree(abs, use, { noFollow: true }) : whole(readBoundedBytes(abs, { noFollow: NO_FOLLOW !== 0 }), use);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ELOOP") throw error;
      real = realpathSync.native(abs);
      realRel = toRootRelative(this.realRoot, real);
      refused = this.outside(realRel, real);
      if (refused !== null) return { refused };
      value = whole(readBoundedBytes(abs), use);
    }
    return realRel !== null && realRel !== path ? { value, realPath: realRel } : { value };
  }

  private outside(realRel: string | null, real: string): string | null {
    if (realRel !== null || this.allowed.some((folder) => toRootRelative(folder, real) !== null)) return null;
    return `leads to ${real}, outside the project root; not followed (config allowOutside can allow it)`;
  }

  private realDir(dir: string): string | null {
    let real = this.realDirs.get(dir);
    if (real === undefined) {
      const abs = under(this.root, dir);
      if (isSymlinkedFolder(abs)) real = realpathSync.native(abs);
      else {
        const parent = this.realDir(dirOf(dir));
        real = parent === null ? null : under(parent, baseName(dir));
      }
      this.realDirs.set(dir, real);
    }
    return real;
  }
}

/**
 * Whether a folder is a symlink: opening it as a folder without following links answers without the Stats object
 * (and its four Dates) lstat makes for each of --all's thousands of folders; anything that open refuses (a symlink's
 * ELOOP, a folder this user may not list) is asked of lstat. Measured slower in fresh processes on the large tree's
 * 3,380 folders (medians of 15): lstat for every folder (its Stats, Dates made eagerly on Node 20), one readdir per
 * parent folder shared by its children (58 against 28 ms), realpath of the deepest folders only (each walks its path).
 */
function isSymlinkedFolder(abs: string): boolean {
  if (AS_FOLDER !== undefined) {
    try {
      closeSync(openSync(abs, AS_FOLDER));
      return false;
    } catch {
      // lstat below says what it is
    }
  }
  return lstatSync(abs).isSymbolicLink();
}

const AS_FOLDER = constants.O_DIRECTORY === undefined || NO_FOLLOW === 0 ? undefined : constants.O_RDONLY | constants.O_DIRECTORY | NO_FOLLOW;

const whole = <T>(bytes: Buffer, use: (bytes: Buffer, length: number) => T): T => use(bytes, bytes.length);

/** Only this module holds it: a WriteTarget is made here or nowhere. */
const MADE_HERE: unique symbol = Symbol("confine");

/**
 * A file ctxinject may write (and read back to merge into): made only here, by `projectFile` (checked below the
 * root at each use) or `userFile` (the user's own, as named).
 */
export class WriteTarget {
  readonly #project: { root: string; rel: string } | null;
  /** `path`: its absolute path, as messages name it. */
  constructor(
    made: typeof MADE_HERE,
    readonly path: string,
    project: { root: string; rel: string } | null,
  ) {
    if (made !== MADE_HERE) throw new TypeError("a WriteTarget is made by io/fs/confine.ts only");
    this.#project = project;
  }
  static projectOf(t: WriteTarget): { root: string; rel: string } | null {
    return t.#project;
  }
}

const target = (path: string, project: { root: string; rel: string } | null): WriteTarget => new WriteTarget(MADE_HERE, path, project);
const projectOf = (t: WriteTarget): { root: string; rel: string } | null => WriteTarget.projectOf(t);

/**
 * A file below the project root, by root-relative or absolute path: written only where no folder on the way below the
 * root, nor the file, is a symlink. `what` names it in errors (`--out`, `.claude/settings.json`).
 */
export function projectFile(root: string, path: string, what = path): WriteTarget {
  const abs = resolve(root, path);
  const rel = toRootRelative(root, abs);
  if (rel === null || rel === "") throw new CtxinjectError(`${what}: ${abs} is not a file below the project root ${root}; nothing was written`);
  // resolve() has taken `.` and `..` off: what is left is refused only for a backslash, a NUL or a drive.
  const why = whyUnclean(rel);
  if (why !== null) throw new CtxinjectError(`${what}: ${JSON.stringify(rel)} ${why}; nothing was written`);
  return target(under(root, rel), { root, rel });
}

/** A file of the user's own (their home's settings, a path they typed outside the project): written as named. */
export const userFile = (path: string): WriteTarget => target(path, null);

/**
 * `--out FILE` (relative to cwd): below the root it is the project's file, and a link on its way is refused (the
 * repository chose that); elsewhere it is a path the user typed, theirs to name.
 */
export function outFile(root: string, cwd: string, out: string, what = `--out ${out}`): WriteTarget {
  const abs = resolve(cwd, out);
  const rel = toRootRelative(root, abs);
  return rel === null ? userFile(abs) : projectFile(root, rel, what);
}

/** An output or settings file is ctxinject's own kind of text: far larger than this is no such file. */
const MAX_OUT_BYTES = 64 * 1024 * 1024;

/**
 * The folders below the root on the way to a project file: each a real folder, never a symlink. With `make`,
 * missing ones are made (one level at a time, so a link planted meanwhile is seen); without, false when one is
 * missing (nothing there to read).
 */
function folderWay(t: WriteTarget, project: { root: string; rel: string }, make: boolean): boolean {
  const parts = project.rel.split("/");
  let at = project.root;
  for (let i = 0; i < parts.length; i++) {
    at = under(at, parts[i]!);
    const last = i === parts.length - 1;
    let info = lstatSync(at, { throwIfNoEntry: false });
    if (info === undefined) {
      if (last) return true;
      if (!make) return false;
      try {
        mkdirSync(at);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      info = lstatSync(at);
    }
    const shown = parts.slice(0, i + 1).join("/");
    if (info.isSymbolicLink()) {
      throw new CtxinjectError(
        `${t.path}: ${shown} is a symlink in the project (it could lead outside it, to ${realOrSelf(at)}); ctxinject does not write through a link, nothing was written (replace the link by a file or folder, or write elsewhere)`,
      );
    }
    if (!last && !info.isDirectory()) throw new CtxinjectError(`${t.path}: ${shown} is not a folder; nothing was written`);
    if (last && !info.isFile()) throw new CtxinjectError(`${t.path}: is not a regular file; ctxinject neither reads nor replaces it`);
  }
  return true;
}

/**
 * The current text of a write target, or null when there is none. Bounded (a FIFO or /dev/zero named like the
 * output is refused with its name); a project file is read only through no link.
 */
export function readTarget(t: WriteTarget): string | null {
  const project = projectOf(t);
  if (project !== null && !folderWay(t, project, false)) return null;
  try {
    return readBoundedText(t.path, { maxBytes: MAX_OUT_BYTES, noFollow: project !== null });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (error instanceof BoundedReadError || code === "ELOOP")
      throw new CtxinjectError(`${t.path} ${unreadableReason(error)}; ctxinject neither reads nor replaces it`);
    throw error;
  }
}

export interface WriteOptions {
  /** The file's mode (a hook script: 0o755), set whatever the umask; by default the umask decides. */
  mode?: number;
  /** Only when nothing is there yet: an existing file is an error naming it. */
  create?: boolean;
}

const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;

/**
 * Writes text to a target through a temp file in its folder and a rename: a reader sees the old file or the new
 * one, never half. The temp file is created (O_EXCL, O_NOFOLLOW) under a fresh name, so nothing planted is written
 * through; the rename replaces the name itself, never what a link there leads to.
 */
export function writeTarget(t: WriteTarget, text: string, options: WriteOptions = {}): void {
  try {
    writeThrough(t, text, options);
  } catch (error) {
    // A folder the user may not write (or a read-only file system) is theirs to fix: one line naming the file.
    const denied = deniedReason(error);
    if (denied !== null) throw new CtxinjectError(`${t.path}: cannot be written (${denied}); nothing was written`);
    throw error;
  }
}

function writeThrough(t: WriteTarget, text: string, options: WriteOptions): void {
  const project = projectOf(t);
  if (project !== null) folderWay(t, project, true);
  else mkdirSync(dirname(t.path), { recursive: true });
  if (options.create) {
    if (lstatSync(t.path, { throwIfNoEntry: false }) !== undefined) throw new CtxinjectError(`${t.path} already exists; nothing was written`);
  }
  const tmp = `${t.path}.tmp-${process.pid}-${randomHex(4)}`;
  try {
    const fd = openSync(tmp, WRITE_FLAGS as unknown as string, 0o666);
    try {
      const bytes = Buffer.from(text);
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    } finally {
      closeSync(fd);
    }
    if (options.mode !== undefined) chmodSync(tmp, options.mode);
    renameSync(tmp, t.path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}
