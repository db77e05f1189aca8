import { usageError } from "../../core/errors.js";
import { configFileIn } from "../../io/config/config.js";
import { findRoot } from "../../io/config/root.js";
import { isCodeConfig, revokeTrust, trust } from "../../io/config/trust.js";
import { writeOut, type CliContext } from "../context.js";

/**
 * `ctxinject trust`: lets the project's JavaScript config run on this machine, as its text is now (a changed file
 * needs trust again); `--revoke` forgets it. Data configs (JSON, YAML) need no trust: ctxinject parses them itself and
 * nothing in them is followed (`$import`) or run.
 */
export async function runTrust(ctx: CliContext, flags: { root?: string; revoke?: boolean }): Promise<number> {
  const { root } = findRoot(ctx.cwd, flags.root);
  const file = configFileIn(root);
  if (file === null) throw usageError(`no config file in ${root} (looked for package.json#ctxinject, .ctxinjectrc*, ctxinject.config.*)`);
  if (!isCodeConfig(file)) {
    await writeOut(ctx, `${file} is a data config (JSON or YAML): ctxinject parses it and runs nothing from it, so it needs no trust\n`);
    return 0;
  }
  if (flags.revoke) {
    await writeOut(ctx, revokeTrust(file, ctx.env) ? `no longer trusted: ${file}\n` : `${file} was not trusted\n`);
    return 0;
  }
  await writeOut(ctx, `trusted ${file} (sha256 ${trust(file, ctx.env)}); it runs in ctxinject from now on, until it changes\n`);
  return 0;
}
