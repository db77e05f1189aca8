/**
 * The folders coverage shows, from the files git tracks: each with the file that stands for it. Whether a rule
 * "applies in a folder" is decided on one real file of that folder (its representative), exactly as a build with
 * `--files <that file>` decides it — a folder has no extension for globs to match.
 */
import { compareText, dirOf } from "../rel-path.js";

export interface Folder {
  path: string;
  depth: number;
  /** The file that stands for the folder: its first file by path order that is no instruction file. */
  representative: string;
  /** The representative's index in the files the tree was made from (-1: none). */
  at: number;
  /** Files below it (its own and its subfolders'), instruction files left out. */
  files: number;
  /** Files in it directly, instruction files left out. */
  own: number;
  children: Folder[];
}

/** The files that are no instruction file, in path order: what folders are judged by and rules are counted over. */
export function codeFiles(tracked: readonly string[], isInstruction: (path: string) => boolean): string[] {
  const code = tracked.filter((file) => !isInstruction(file));
  // git lists files in this order already: a check is one pass, a sort of 100k paths is many.
  for (let i = 1; i < code.length; i++) if (compareText(code[i - 1]!, code[i]!) > 0) return code.sort(compareText);
  return code;
}

/**
 * The tree of folders holding at least one file that is no instruction file (a `.cursor/rules` folder is where rules
 * live, not where code is written), from `codeFiles`. A folder's representative is its own first such file; a folder
 * holding only folders takes its first subfolder's, so it is judged by the first file below it.
 */
/**
 * Made by a constructor, its children's list by a builtin copy: a literal kept past a collection has an allocation
 * site whose later "old space" decision threw away the compiled folderTree, to be compiled again.
 */
class FolderNode implements Folder {
  path: string;
  depth: number;
  representative = "";
  at = -1;
  files = 0;
  own = 0;
  children: Folder[] = NO_FOLDERS.slice();
  constructor(path: string, depth: number) {
    this.path = path;
    this.depth = depth;
  }
}
/** Never written: a new folder's children start as a copy of it. */
const NO_FOLDERS: readonly Folder[] = [];

export function folderTree(code: readonly string[]): Folder {
  const root: Folder = new FolderNode("", 0);
  const byPath = new Map<string, Folder>([["", root]]);
  const folderOf = (path: string): Folder => {
    let folder = byPath.get(path);
    if (folder !== undefined) return folder;
    const parent = folderOf(dirOf(path));
    folder = new FolderNode(path, parent.depth + 1);
    parent.children.push(folder);
    byPath.set(path, folder);
    return folder;
  };
  // Files come in path order: a folder's files follow one another, so the last folder is asked first.
  let last = root;
  let lastPath = "";
  for (let at = 0; at < code.length; at++) {
    const file = code[at]!;
    const slash = file.lastIndexOf("/");
    const dir = slash < 0 ? "" : file.slice(0, slash);
    const folder = dir === lastPath ? last : folderOf(dir);
    last = folder;
    lastPath = dir;
    folder.own++;
    if (folder.representative === "") {
      folder.representative = file;
      folder.at = at;
    }
  }
  const finish = (folder: Folder): void => {
    folder.children.sort((a, b) => compareText(a.path, b.path));
    folder.files = folder.own;
    for (const child of folder.children) {
      finish(child);
      folder.files += child.files;
    }
    if (folder.representative === "") {
      folder.representative = folder.children[0]?.representative ?? "";
      folder.at = folder.children[0]?.at ?? -1;
    }
  };
  finish(root);
  return root;
}

/** Every folder of the tree, parents before children, siblings in path order. */
export function eachFolder(root: Folder): Folder[] {
  const out: Folder[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const folder = stack.pop()!;
    out.push(folder);
    for (let i = folder.children.length - 1; i >= 0; i--) stack.push(folder.children[i]!);
  }
  return out;
}
