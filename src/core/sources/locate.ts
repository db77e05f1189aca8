/** Which module a path belongs to, and the folder its rules are anchored at. */
import type { LocateOptions, SourceModule } from "./source.js";

export interface Location {
  module: SourceModule;
  anchor: string;
  matched: string;
}

/**
 * Classifies a root-relative path, or returns null when it is not an instruction file. Modules are asked in
 * list order, each for its folders first, then its names; the first claim wins (`.cursor/rules/README.md` is
 * a Cursor rule, not a README).
 */
export function locate(path: string, modules: readonly SourceModule[], options: LocateOptions): Location | null {
  for (const module of modules) {
    if (!module.files) continue;
    const spec = module.files(options);
    for (const folder of spec.folders) {
      const at = markerAt(path, `${folder}/`);
      if (at === null) continue;
      const inFolder = path.slice(at === 0 ? folder.length + 1 : at + folder.length + 2);
      if (spec.accepts?.(inFolder) ?? true) return { module, anchor: at === 0 ? "" : path.slice(0, at), matched: folder };
    }
    for (const name of spec.names) {
      if (path === name) return { module, anchor: "", matched: name };
      if (path.endsWith(`/${name}`)) return { module, anchor: path.slice(0, path.length - name.length - 1), matched: name };
    }
  }
  return null;
}

/**
 * Where `marker` (e.g. ".cursor/rules/") starts in path: 0 at the start, else the index of the `/` before it,
 * or null. The first occurrence wins.
 */
function markerAt(path: string, marker: string): number | null {
  if (path.startsWith(marker)) return 0;
  const at = path.indexOf(`/${marker}`);
  return at === -1 ? null : at;
}

/** Every folder and name the modules read, for discovery (folders are walked whole, names looked up). */
export function discoveryNames(modules: readonly SourceModule[], options: LocateOptions): { folders: string[]; names: string[] } {
  const folders = new Set<string>();
  const names = new Set<string>();
  for (const module of modules) {
    const spec = module.files?.(options);
    spec?.folders.forEach((f) => folders.add(f));
    spec?.names.forEach((n) => names.add(n));
  }
  return { folders: [...folders], names: [...names] };
}

export const isMarkdown = (name: string) => name.endsWith(".md");
export const isMdOrMdc = (name: string) => name.endsWith(".md") || name.endsWith(".mdc");
