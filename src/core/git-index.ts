/**
 * The paths in git's index file (`.git/index`, versions 2 to 4) that an instruction-file spec asks for, read from
 * its bytes: what `git ls-files --cached -- '*NAME' '*FOLDER/*'` prints, without a git process listing a 100k-entry
 * index and matching every entry against 40 wildcards. Only the paths that match become strings.
 *
 * Returns null for what only git should read: another signature or version, a split index (`link`), a sparse
 * index (`sdir`, or directory entries), bytes that do not parse. See Documentation/gitformat-index.txt in git.
 */

export interface IndexSpec {
  /** Paths ending in one of these, at a segment boundary (`AGENTS.md`, `.github/copilot-instructions.md`). */
  names: readonly string[];
  /** Paths with one of these folders somewhere in them (`.cursor/rules`). */
  folders: readonly string[];
  /** Only paths under this folder (root-relative to the repository's top, no slashes around; "" for all). */
  prefix: string;
  /** Bytes of an object name: 20 (SHA-1), or 32 in a SHA-256 repository. */
  hashBytes?: number;
}

const SLASH = 0x2f;
const DIRECTORY_MODE = 0o040000;
const encoder = new TextEncoder();

interface Pattern {
  bytes: Uint8Array;
  /** The bytes after its last slash (a name's file name). */
  last: Uint8Array;
}

const pattern = (text: string): Pattern => {
  const bytes = encoder.encode(text);
  return { bytes, last: bytes.subarray(bytes.lastIndexOf(SLASH) + 1) };
};

/** Root-relative paths (with `prefix` taken off), in index order, each once; null when git must be asked. */
export function indexedPaths(index: Uint8Array, spec: IndexSpec): string[] | null {
  const view = new DataView(index.buffer, index.byteOffset, index.byteLength);
  if (index.length < 12 || view.getUint32(0) !== 0x44495243 /* DIRC */) return null;
  const version = view.getUint32(4);
  if (version < 2 || version > 4) return null;
  const count = view.getUint32(8);
  const hashBytes = spec.hashBytes ?? 20;
  const fixed = 40 + hashBytes + 2; // times, ids, mode, size; object name; flags

  // Names by the length of their file name; folders by their first byte: most paths are ruled out by one lookup.
  const byLength = new Map<number, Pattern[]>();
  for (const name of spec.names) {
    const p = pattern(name);
    byLength.set(p.last.length, [...(byLength.get(p.last.length) ?? []), p]);
  }
  const byFirst: Pattern[][] = Array.from({ length: 256 }, () => []);
  for (const folder of spec.folders) {
    const p = pattern(`${folder}/`);
    byFirst[p.bytes[0]!]!.push(p);
  }
  const prefix = spec.prefix === "" ? null : encoder.encode(`${spec.prefix}/`);

  // Version 4 keeps each path as "drop N bytes of the previous one, add these": paths are rebuilt in `scratch`.
  // Offsets, not subarrays: a view per entry would be 100k objects for the collector.
  let scratch = new Uint8Array(version === 4 ? 4096 : 0);
  let scratchLength = 0;
  const from = prefix?.length ?? 0;
  const out: string[] = [];
  let last = "";
  let at = 12;
  try {
    for (let entry = 0; entry < count; entry++) {
      const start = at;
      if ((view.getUint32(start + 24) & 0o170000) === DIRECTORY_MODE) return null;
      const flags = view.getUint16(start + fixed - 2);
      at = start + fixed + (version >= 3 && (flags & 0x4000) !== 0 ? 2 : 0);
      let bytes: Uint8Array;
      let begin: number;
      let end: number;
      if (version === 4) {
        let byte = index[at++]!;
        let drop = byte & 127;
        while (byte & 128) {
          byte = index[at++]!;
          drop = ((drop + 1) << 7) | (byte & 127);
        }
        const stop = index.indexOf(0, at);
        if (stop === -1 || drop > scratchLength) return null;
        const kept = scratchLength - drop;
        if (kept + stop - at > scratch.length) {
          const bigger = new Uint8Array(2 * (kept + stop - at));
          bigger.set(scratch.subarray(0, kept));
          scratch = bigger;
        }
        scratch.set(index.subarray(at, stop), kept);
        scratchLength = kept + stop - at;
        bytes = scratch;
        begin = 0;
        end = scratchLength;
        at = stop + 1;
      } else {
        const length = flags & 0xfff;
        end = length < 0xfff ? at + length : index.indexOf(0, at);
        if (end === -1 || end > index.length) return null;
        bytes = index;
        begin = at;
        // Padded with 1 to 8 NULs to a multiple of 8 bytes from the entry's start.
        at = start + ((end - start + 8) & ~7);
      }
      if (at > index.length) return null;
      if (prefix !== null && !startsWith(bytes, end, prefix, begin)) continue;
      if (!wanted(bytes, begin + from, end, byLength, byFirst)) continue;
      const text = decodeUtf8(bytes, begin + from, end);
      // Conflicted paths have an entry per stage, one after another.
      if (text !== last) out.push(text);
      last = text;
    }
    // Extensions follow the entries: a split or sparse index keeps paths elsewhere.
    while (at + 8 <= index.length - hashBytes) {
      const signature = String.fromCharCode(index[at]!, index[at + 1]!, index[at + 2]!, index[at + 3]!);
      if (signature === "link" || signature === "sdir") return null;
      at += 8 + view.getUint32(at + 4);
    }
  } catch {
    return null;
  }
  return out;
}

/** Whether the path in bytes[from, end) ends with a wanted name or holds a wanted folder. */
function wanted(bytes: Uint8Array, from: number, end: number, byLength: Map<number, Pattern[]>, byFirst: Pattern[][]): boolean {
  let base = end;
  while (base > from && bytes[base - 1] !== SLASH) base--;
  const names = byLength.get(end - base);
  if (names !== undefined) {
    for (let n = 0; n < names.length; n++) {
      const p = names[n]!.bytes;
      const begin = end - p.length;
      if (begin >= from && (begin === from || bytes[begin - 1] === SLASH) && startsWith(bytes, end, p, begin)) return true;
    }
  }
  // A folder starts the path or follows a slash, and a file lies under it.
  for (let i = from; i < base; i++) {
    if (i !== from && bytes[i - 1] !== SLASH) continue;
    const folders = byFirst[bytes[i]!]!;
    for (let f = 0; f < folders.length; f++) {
      const p = folders[f]!.bytes;
      if (i + p.length < end && startsWith(bytes, end, p, i)) return true;
    }
  }
  return false;
}

/** Whether bytes[at, end) begins with `part`. */
function startsWith(bytes: Uint8Array, end: number, part: Uint8Array, at: number): boolean {
  if (at + part.length > end) return false;
  for (let i = 0; i < part.length; i++) if (bytes[at + i] !== part[i]) return false;
  return true;
}

const decoder = new TextDecoder();
/** Plain ASCII (nearly every path) without the decoder's call overhead. */
function decodeUtf8(bytes: Uint8Array, from: number, end: number): string {
  for (let i = from; i < end; i++) if (bytes[i]! >= 0x80) return decoder.decode(bytes.subarray(from, end));
  return String.fromCharCode.apply(null, bytes.subarray(from, end) as unknown as number[]);
}
