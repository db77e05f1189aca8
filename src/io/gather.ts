import type { Config } from "../core/config.js";
import { selectContext, type CustomInput, type Selection } from "../core/select.js";
import type { CountTokens } from "../core/tokens.js";
import type { Warning } from "../core/types.js";
import { loadConfig } from "./config.js";
import { discover } from "./discover.js";
import { readCustomEntries } from "./custom.js";
import { readSourceFiles } from "./read.js";
import { findRoot } from "./root.js";
import { resolveTargets, type TargetOptions } from "./targets.js";

export interface GatherOptions extends TargetOptions {
  cwd: string;
  root?: string;
  all?: boolean;
  rules?: string[];
  countTokens?: CountTokens;
}

export interface Gathered {
  root: string;
  config: Config;
  configFile: string | null;
  selection: Selection;
  /** Everything worth a line on stderr, in the order it was found. */
  warnings: Warning[];
}

/** The whole read side of a build: root, config, targets, discovery, reading, then the pure selection. */
export async function gather(options: GatherOptions, extra: { custom?: CustomInput[] } = {}): Promise<Gathered> {
  const { root, gitTop } = findRoot(options.cwd, options.root);
  const { config, file: configFile } = await loadConfig(root);
  const { targets, warnings } = resolveTargets(options.cwd, root, gitTop, options);
  const all = options.all === true;
  const paths = await discover({
    root,
    useGit: gitTop !== null,
    agentFiles: config.agents.files,
    ruleDirs: config.rules.dirs,
    scope: all ? { all: true } : { all: false, targets },
  });
  const read = await readSourceFiles(root, paths);
  const custom = await readCustomEntries(root, config);
  const selection = selectContext({
    files: read.files,
    targets,
    all,
    rules: options.rules ?? [],
    custom: [...custom.entries, ...(extra.custom ?? [])],
    config,
    ...(options.countTokens && { countTokens: options.countTokens }),
  });
  return { root, config, configFile, selection, warnings: [...warnings, ...read.warnings, ...custom.warnings, ...selection.warnings] };
}
