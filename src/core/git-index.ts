/**
 * The paths in git's index file (`.git/index`, versions 2 to 4) that an instruction-file spec asks for, read from
 * its bytes: what `git ls-files --cached -- '*NAME' '*FOLDER/*'` prints, without a git process listing a 100k-entry
 * index and matching every entry against 40 wildcards. Only the paths that match become strings.
 *
 * Returns null for what only git should read: another signature or version, a split index (`link`), a sparse
 * index (`sdir`, or directory entries), bytes that do not parse. See Documentation/gitformat-index.txt in git.
 */
import { lazyConstant } from "./lazy-constant.js";

export interface IndexSpec {
  /** Paths ending in one of these, at a segment boundary (`AGENTS.md`, `.github/copilot-instructions.md`). */
  names: readonly string[];
  /** Paths with one of these folders somewhere in them (`.cursor/rules`). */
  folders: readonly string[];
  /** Only paths under this folder (root-relative to the repository's top, no slashes around; "" for all). */
  prefix: string;
  /** Bytes of an object name: 20 (SHA-1), or 32 in a SHA-256 repository. */
  hashBytes?: number;
  /** Every path, names and folders aside: what `git ls-files --cached` prints (coverage counts every file). */
  every?: boolean;
}

const SLASH = 0x2f;
const DIRECTORY_MODE = 0o040000;
const encoder = new TextEncoder();

/** Reads up to `length` bytes into `into` at `offset`; 0 at the end of the file. */
type ReadBytes = (into: Uint8Array, offset: number, length: number) => number;

/** A reader of bytes already in memory; `step` caps each read (tests cut the bytes anywhere with it). */
export function bytesReader(bytes: Uint8Array, step = Infinity): ReadBytes {
  let at = 0;
  return (into, offset, length) => {
    const n = Math.min(length, bytes.length - at, step);
    into.set(bytes.subarray(at, at + n), offset);
    at += n;
    return n;
  };
}

/**
 * A file read front to back through one buffer that holds the part being parsed: a 100k-entry index is ~9 MB, and
 * reading it whole costs a page fault per 4 KB it fills (~5 ms and 9 MB of memory on the benchmark's large tree),
 * while the parse only ever looks at one entry.
 */
class Window {
  bytes: Uint8Array;
  view: DataView;
  /** Where the part being parsed starts in `bytes`. */
  pos = 0;
  /** Bytes of `bytes` holding the file; the rest is stale. */
  length = 0;
  private ended = false;

  constructor(
    private readonly read: ReadBytes,
    size: number,
  ) {
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
  }

  /** Whether bytes[pos, pos + n) hold the file, reading on (and moving the part to the front) as needed. */
  has(n: number): boolean {
    if (this.pos + n <= this.length) return true;
    this.bytes.copyWithin(0, this.pos, this.length);
    this.length -= this.pos;
    this.pos = 0;
    if (n > this.bytes.length) {
      const bigger = new Uint8Array(Math.max(2 * this.bytes.length, n));
      bigger.set(this.bytes.subarray(0, this.length));
      this.bytes = bigger;
      this.view = new DataView(bigger.buffer);
    }
    while (this.length < n && !this.ended) {
      const got = this.read(this.bytes, this.length, this.bytes.length - this.length);
      if (got === 0) this.ended = true;
      this.length += got;
    }
    return this.length >= n;
  }

  /** The offset from pos of the first NUL at or after pos + from, reading on as needed; -1 if the file ends first. */
  nul(from: number): number {
    for (;;) {
      const stop = this.bytes.indexOf(0, this.pos + from);
      if (stop !== -1 && stop < this.length) return stop - this.pos;
      if (!this.has(this.length - this.pos + 4096)) {
        const last = this.bytes.indexOf(0, this.pos + from);
        return last !== -1 && last < this.length ? last - this.pos : -1;
      }
    }
  }

  /** Moves pos on by n bytes, reading past what is held; false if the file ends first. */
  skip(n: number): boolean {
    if (this.pos + n <= this.length) {
      this.pos += n;
      return true;
    }
    n -= this.length - this.pos;
    this.pos = 0;
    this.length = 0;
    for (;;) {
      const got = this.read(this.bytes, 0, this.bytes.length);
      if (got === 0) {
        this.ended = true;
        return false;
      }
      if (got >= n) {
        this.pos = n;
        this.length = got;
        return true;
      }
      n -= got;
    }
  }
}

/**
 * Root-relative paths (with `prefix` taken off), in index order, each once; null when git must be asked.
 * `read` gives the index file's bytes from its start.
 */
export function indexedPaths(read: ReadBytes, spec: IndexSpec, windowBytes = 256 * 1024): string[] | null {
  const w = new Window(read, windowBytes);
  try {
    if (!w.has(12) || w.view.getUint32(0) !== 0x44495243 /* DIRC */) return null;
    const version = w.view.getUint32(4);
    if (version < 2 || version > 4) return null;
    const count = w.view.getUint32(8);
    w.pos = 12;
    const hashBytes = spec.hashBytes ?? 20;
    const fixed = 40 + hashBytes + 2; // times, ids, mode, size; object name; flags

    const wanted: Matcher = spec.every === true ? () => true : matcher(spec);
    const prefix = spec.prefix === "" ? null : encoder.encode(`${spec.prefix}/`);

    const out = entries(w, version, count, fixed, prefix, wanted);
    if (out === null) return null;
    // Extensions follow the entries, and the file's hash ends it: a split or sparse index keeps paths elsewhere.
    while (w.has(8 + hashBytes)) {
      const b = w.bytes;
      const signature = String.fromCharCode(b[w.pos]!, b[w.pos + 1]!, b[w.pos + 2]!, b[w.pos + 3]!);
      if (signature === "link" || signature === "sdir") return null;
      if (!w.skip(8 + w.view.getUint32(w.pos + 4))) break;
    }
    return out;
  } catch {
    return null;
  }
}

/**
 * The entries' paths that `wanted` keeps (`prefix` taken off), or null where they do not parse. The loop is a
 * function of its own: V8 compiles a hot loop's function on the spot (OSR), and code after the loop (the extensions)
 * has had no run to learn from, so the compiled loop was thrown away there and compiled again (~30 + ~55 ms of
 * background CPU on the large tree's index); here nothing follows the loop.
 */
function entries(w: Window, version: number, count: number, fixed: number, prefix: Uint8Array | null, wanted: Matcher): string[] | null {
  // Version 4 keeps each path as "drop N bytes of the previous one, add these": paths are rebuilt in `scratch`.
  // Offsets, not subarrays: a view per entry would be 100k objects for the collector.
  let scratch = new Uint8Array(version === 4 ? 4096 : 0);
  let scratchLength = 0;
  const from = prefix?.length ?? 0;
  const out: string[] = [];
  let last = "";
  for (let entry = 0; entry < count; entry++) {
    // The fixed part and the extended flags; a path and its end follow (the file's hash after the last one).
    if (!w.has(fixed + 2)) return null;
    // Byte loads, not DataView calls: each call is a builtin's cost while the loop is still interpreted. The
    // mode's type bits (0o170000) are the high half of its third byte; the flags are big-endian.
    const b = w.bytes;
    if ((b[w.pos + 26]! & 0xf0) === DIRECTORY_MODE >> 8) return null;
    const flags = (b[w.pos + fixed - 2]! << 8) | b[w.pos + fixed - 1]!;
    const pathAt = fixed + (version >= 3 && (flags & 0x4000) !== 0 ? 2 : 0);
    let bytes: Uint8Array;
    let begin: number;
    let end: number;
    if (version === 4) {
      if (!w.has(pathAt + 10)) return null;
      let p = w.pos + pathAt;
      let byte = w.bytes[p++]!;
      let drop = byte & 127;
      while (byte & 128) {
        byte = w.bytes[p++]!;
        drop = ((drop + 1) << 7) | (byte & 127);
      }
      const added = p - w.pos;
      const stop = w.nul(added);
      if (stop === -1 || drop > scratchLength) return null;
      const kept = scratchLength - drop;
      const size = stop - added;
      if (kept + size > scratch.length) {
        const bigger = new Uint8Array(2 * (kept + size));
        bigger.set(scratch.subarray(0, kept));
        scratch = bigger;
      }
      scratch.set(w.bytes.subarray(w.pos + added, w.pos + stop), kept);
      scratchLength = kept + size;
      bytes = scratch;
      begin = 0;
      end = scratchLength;
      w.pos += stop + 1;
    } else {
      const length = flags & 0xfff;
      const pathEnd = length < 0xfff ? pathAt + length : w.nul(pathAt);
      // Padded with 1 to 8 NULs to a multiple of 8 bytes from the entry's start.
      const size = (pathEnd + 8) & ~7;
      if (pathEnd === -1 || !w.has(size)) return null;
      bytes = w.bytes;
      begin = w.pos + pathAt;
      end = w.pos + pathEnd;
      w.pos += size;
    }
    if (prefix !== null && !startsWith(bytes, end, prefix, begin)) continue;
    if (!wanted(bytes, begin + from, end)) continue;
    const text = decodeUtf8(bytes, begin + from, end);
    // Conflicted paths have an entry per stage, one after another.
    if (text !== last) out.push(text);
    last = text;
  }
  return out;
}

/** Whether the path in bytes[from, end) ends with a wanted name or holds a wanted folder. */
type Matcher = (bytes: Uint8Array, from: number, end: number) => boolean;

/**
 * The spec's test of one path. It runs on every entry of a 100k-entry index in a run too short for V8 to optimise
 * it early, so most of it runs in the interpreter, where each byte a loop looks at costs: a loop over every byte of
 * every path was ~60% of the parse (medium tree, cold). A name is looked up by the path's last two bytes (a source
 * file's `ts`, `js` is no wanted name's ending); the folders are searched for with a multi-pattern Horspool skip
 * (the set's shortest pattern `m` bytes long: most alignments move on by `m` after one look).
 */
function matcher(spec: IndexSpec): Matcher {
  // Names by their last two bytes, flagged in a table; a one-byte name by its byte alone.
  const endsWith = new Uint8Array(65536);
  const byEnd = new Map<number, Uint8Array[]>();
  const oneByte = new Uint8Array(256);
  for (const name of spec.names) {
    const bytes = encoder.encode(name);
    const n = bytes.length;
    if (n === 0) continue;
    if (n === 1) {
      oneByte[bytes[0]!] = 1;
      continue;
    }
    const key = (bytes[n - 2]! << 8) | bytes[n - 1]!;
    endsWith[key] = 1;
    byEnd.set(key, [...(byEnd.get(key) ?? []), bytes]);
  }
  const folders = spec.folders.map((folder) => encoder.encode(`${folder}/`));
  const m = folders.length === 0 ? 0 : Math.min(...folders.map((p) => p.length));
  // Horspool's shift for a set: how far the window may move when its last byte is `c` (0: a pattern may end here).
  const shift = new Uint8Array(256).fill(Math.min(m, 255));
  const lastOf: Uint8Array[][] = Array.from({ length: 256 }, () => []);
  for (const p of folders) {
    for (let k = 0; k < m - 1; k++) shift[p[k]!] = Math.min(shift[p[k]!]!, m - 1 - k);
    shift[p[m - 1]!] = 0;
    lastOf[p[m - 1]!]!.push(p);
  }

  const named = (bytes: Uint8Array, from: number, end: number): boolean => {
    if (end - from >= 2) {
      const key = (bytes[end - 2]! << 8) | bytes[end - 1]!;
      if (endsWith[key] === 1) {
        const names = byEnd.get(key)!;
        for (let n = 0; n < names.length; n++) {
          const p = names[n]!;
          const begin = end - p.length;
          if (begin >= from && (begin === from || bytes[begin - 1] === SLASH) && startsWith(bytes, end, p, begin)) return true;
        }
      }
    }
    // A one-byte name: the whole path, or its file name.
    return end - from >= 1 && oneByte[bytes[end - 1]!] === 1 && (end - from === 1 || bytes[end - 2] === SLASH);
  };
  // A folder starts the path or follows a slash, and a file lies under it (i + p.length < end).
  const inFolder = (bytes: Uint8Array, from: number, end: number): boolean => {
    if (m === 0) return false;
    let i = from;
    while (i + m < end) {
      const c = bytes[i + m - 1]!;
      const s = shift[c]!;
      if (s !== 0) {
        i += s;
        continue;
      }
      if (i === from || bytes[i - 1] === SLASH) {
        const candidates = lastOf[c]!;
        for (let f = 0; f < candidates.length; f++) {
          const p = candidates[f]!;
          if (i + p.length < end && startsWith(bytes, end, p, i)) return true;
        }
      }
      i++;
    }
    return false;
  };
  return (bytes, from, end) => named(bytes, from, end) || inFolder(bytes, from, end);
}

/** Whether bytes[at, end) begins with `part`. */
function startsWith(bytes: Uint8Array, end: number, part: Uint8Array, at: number): boolean {
  if (at + part.length > end) return false;
  for (let i = 0; i < part.length; i++) if (bytes[at + i] !== part[i]) return false;
  return true;
}

// Made on first use: Node's first TextDecoder costs ~0.25 ms, and only a path outside ASCII needs it.
const decoder = lazyConstant(() => new TextDecoder());
/** Plain ASCII (nearly every path) without the decoder's call overhead. */
function decodeUtf8(bytes: Uint8Array, from: number, end: number): string {
  for (let i = from; i < end; i++) if (bytes[i]! >= 0x80) return decoder().decode(bytes.subarray(from, end));
  return String.fromCharCode.apply(null, bytes.subarray(from, end) as unknown as number[]);
}
