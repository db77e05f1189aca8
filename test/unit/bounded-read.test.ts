/**
 * The shared-buffer read of files inside the tree gives the same bytes and the same refusals as the checked read:
 * a file larger than its buffer whole, an empty file empty, a FIFO, a folder and an oversized file refused by name.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BoundedReadError, readBoundedBytes, readInTree } from "../../src/io/fs/bounded-read.js";
import { tempFolders } from "../helpers/temp.js";

const { folder } = tempFolders(test);

const dir = folder("bounded");
const text = (path: string, maxBytes?: number) =>
  readInTree(path, (bytes, length) => bytes.toString("utf8", 0, length), { noFollow: true, ...(maxBytes !== undefined && { maxBytes }) });

test("a file larger than the shared buffer arrives whole, and a small file read after it is not mixed with it", () => {
  const big = "rule line\n".repeat(20_000);
  writeFileSync(join(dir, "big.md"), big);
  writeFileSync(join(dir, "small.md"), "short\n");
  assert.is(text(join(dir, "big.md")), big);
  assert.is(text(join(dir, "small.md")), "short\n");
  assert.is(text(join(dir, "big.md")), readBoundedBytes(join(dir, "big.md")).toString("utf8"));
});

test("an empty file is empty, not refused", () => {
  writeFileSync(join(dir, "empty.md"), "");
  assert.is(text(join(dir, "empty.md")), "");
});

test("a FIFO, a folder and a file over the limit are refused with the checked read's reasons", () => {
  const code = (path: string, maxBytes?: number) => {
    try {
      text(path, maxBytes);
      return "read";
    } catch (error) {
      return error instanceof BoundedReadError ? error.code : String((error as NodeJS.ErrnoException).code);
    }
  };
  if (spawnSync("mkfifo", [join(dir, "pipe.md")]).status === 0) assert.is(code(join(dir, "pipe.md")), "ENOTREG");
  mkdirSync(join(dir, "folder.md"));
  assert.is(code(join(dir, "folder.md")), "ENOTREG");
  writeFileSync(join(dir, "over.md"), "x".repeat(70_000));
  assert.is(code(join(dir, "over.md"), 65_000), "EFBIG");
  writeFileSync(join(dir, "small-over.md"), "x".repeat(2_000));
  assert.is(code(join(dir, "small-over.md"), 1_000), "EFBIG");
});

test.run();
