import { test } from "uvu";
import * as assert from "uvu/assert";
import { posix, win32 } from "node:path";
import { toRootRelative, type PathStyle } from "../../src/io/fs/paths.js";

const WINDOWS: PathStyle = { path: win32, foldCase: true };
const MACOS: PathStyle = { path: posix, foldCase: true };
const LINUX: PathStyle = { path: posix, foldCase: false };

test("on Windows a path whose drive or folders differ in case from the root's is inside it, with / separators", () => {
  assert.is(toRootRelative("C:\\Users\\Ana\\Repo", "c:\\users\\ana\\repo\\src\\a.ts", WINDOWS), "src/a.ts");
  assert.is(toRootRelative("C:\\Users\\Ana\\Repo", "C:\\Users\\Ana\\REPO", WINDOWS), "");
  assert.is(toRootRelative("C:\\Users\\Ana\\Repo", "C:\\Users\\Ana\\Repo2\\a.ts", WINDOWS), null);
  assert.is(toRootRelative("C:\\Users\\Ana\\Repo", "D:\\Users\\Ana\\Repo\\a.ts", WINDOWS), null);
  assert.is(toRootRelative("C:\\Users\\Ana\\Repo", "C:\\Users\\Ana\\a.ts", WINDOWS), null);
});

test("on macOS a host's path that spells the root's folders in another case (or another normalization) is inside it", () => {
  assert.is(toRootRelative("/Users/ana/Repo", "/users/ana/repo/src/A.ts", MACOS), "src/A.ts");
  assert.is(toRootRelative("/Users/ana/Caf\u00e9", "/Users/ana/Cafe\u0301/a.md", MACOS), "a.md");
  assert.is(toRootRelative("/Users/ana/Repo", "/Users/ana/Repo2/a.ts", MACOS), null);
  assert.is(toRootRelative("/Users/ana/Repo", "/Users/ana/a.ts", MACOS), null);
  assert.is(toRootRelative("/Users/ana/Repo", "/Users/ana/Repo/src/../a.ts", MACOS), "a.ts");
});

test("on Linux case still tells two folders apart", () => {
  assert.is(toRootRelative("/home/ana/Repo", "/home/ana/repo/a.ts", LINUX), null);
  assert.is(toRootRelative("/home/ana/Repo", "/home/ana/Repo/a.ts", LINUX), "a.ts");
});

test("a file whose name starts with two dots is inside the root", () => {
  assert.is(toRootRelative("/r", "/r/..notes.md", LINUX), "..notes.md");
  assert.is(toRootRelative("/r", "/r/./..notes.md", LINUX), "..notes.md");
  assert.is(toRootRelative("C:\\r", "C:\\r\\..notes.md", WINDOWS), "..notes.md");
  assert.is(toRootRelative("/r", "/r/../x", LINUX), null);
});

test.run();
