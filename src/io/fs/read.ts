import { unreadableReason } from "./bounded-read.js";
import type { SourceFile, Warning } from "../../core/types.js";
import { ConfinedReader } from "./confine.js";
import { mayStopAfter, type StopSignal } from "../../core/work-budget.js";

export interface ReadOptions {
  /** Real paths outside the root that symlinks may lead to (config `allowOutside`, resolved against the root). */
  allowOutside?: string[];
  /** Asked before each file once the least is read (core/work-budget.ts mayStopAfter; a hook's deadline): passed stops the reading, the files read so far kept; its note begins the warning. */
  stop?: StopSignal;
}

/**
 * Reads instruction files as text, through the confinement (io/fs/confine.ts). A file that cannot be read, holds a NUL
 * byte (binary), is no clean path below the root (`a/../..`, absolute) or leads out of the project root through a
 * symlink is left out with a warning naming it; so is anything that is not a regular file (a device, a FIFO:
 * `/dev/zero` behind a symlink) or is larger than MAX_FILE_BYTES, before a byte of it is read. Invalid UTF-8 decodes
 * to replacement characters, with a warning. Reads are synchronous: thousands of small files read faster one after
 * another than through the thread pool's open/fstat/read/close round trips (measured on the large benchmark tree).
 */
export function readSourceFiles(root: string, paths: string[], options: ReadOptions = {}): { files: SourceFile[]; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const reader = new ConfinedReader(root, options.allowOutside);
  const files: SourceFile[] = [];
  let chars = 0;
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i]!;
    if (options.stop !== undefined && mayStopAfter(files.length, chars) && options.stop.passed()) {
      warnings.push({ message: `${options.stop.note}: ${paths.length - i} of ${paths.length} files not read (${path} the first)` });
      break;
    }
    try {
      const read = reader.read(path, decode);
      if ("refused" in read) {
        warnings.push({ file: path, message: read.refused });
        continue;
      }
      if (read.value === null) {
        warnings.push({ file: path, message: "binary file (NUL byte); skipped" });
        continue;
      }
      const { text, invalid } = read.value;
      if (invalid) warnings.push({ file: path, message: "not valid UTF-8; undecodable bytes became U+FFFD" });
      chars += text.length;
      files.push(read.realPath !== undefined ? { path, text, realPath: read.realPath } : { path, text });
    } catch (error) {
      warnings.push({ file: path, message: `${unreadableReason(error)}; skipped` });
    }
  }
  return { files, warnings };
}

const REPLACEMENT = Buffer.from("\uFFFD");

interface Decoded {
  text: string;
  /** Undecodable bytes became U+FFFD (a file that holds the character itself says so in its bytes: rare). */
  invalid: boolean;
}

/**
 * A file's bytes (the first `length` of `bytes`) as text, or null when they hold a NUL byte (a binary file). A byte
 * order mark is dropped, as TextDecoder drops it. The NUL is looked for in the text: in UTF-8 a 0 byte is U+0000
 * and nothing else decodes to it.
 */
function decode(bytes: Buffer, length: number = bytes.length): Decoded | null {
  const bom = length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const text = bytes.toString("utf8", bom ? 3 : 0, length);
  if (text.includes("\0")) return null;
  return { text, invalid: text.includes("\uFFFD") && !bytes.subarray(0, length).includes(REPLACEMENT) };
}
