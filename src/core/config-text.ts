import { CtxinjectError } from "./errors.js";
import { loadSafeYaml, type YamlError } from "./parse/safe-yaml.js";

export type DataConfigKind = "json" | "yaml" | "package.json";

/**
 * A data config's text as plain values: JSON with JSON.parse, YAML with js-yaml's safe schema. Nothing in it is
 * followed or run (cosmiconfig's `$import` is an ordinary, unknown key here). A syntax error says where, never what
 * is there: a config may be a symlink to a file of secrets, and both parsers' own messages quote the text.
 * `package.json`: its `ctxinject` key, or undefined without one.
 */
export function parseConfigText(text: string, kind: DataConfigKind, file: string): unknown {
  if (kind === "yaml") {
    // An extensionless .ctxinjectrc may be JSON; JSON.parse reads it faster and js-yaml reads it alike.
    if (text.trimStart().startsWith("{")) {
      const json = tryJson(text);
      if (json.ok) return json.value;
    }
    try {
      return loadSafeYaml()(text);
    } catch (error) {
      const { reason, mark } = error as YamlError;
      const where = mark ? ` at line ${mark.line + 1}, column ${mark.column + 1}` : "";
      throw new CtxinjectError(`${file}: cannot load the config file: not valid YAML${where}${reason ? ` (${plainReason(reason)})` : ""}`);
    }
  }
  const json = tryJson(text);
  if (!json.ok) throw new CtxinjectError(`${file}: cannot load the config file: not valid JSON${json.where}`);
  if (kind !== "package.json") return json.value;
  const pkg = json.value;
  return pkg !== null && typeof pkg === "object" && !Array.isArray(pkg) ? (pkg as Record<string, unknown>).ctxinject : undefined;
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false; where: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    // V8 says "<reason> in JSON at position N" for some errors and quotes the text for others ("Unexpected token
    // 'h', "https://us"... is not valid JSON"): only a reason of the first kind is kept, with its place.
    const found = /^((?:[\w -]|'.')+) in JSON at position (\d+)/.exec((error as Error).message);
    if (!found) return { ok: false, where: "" };
    const before = text.slice(0, Number(found[2]));
    const line = before.split("\n").length;
    const column = before.length - before.lastIndexOf("\n");
    return { ok: false, where: ` at line ${line}, column ${column} (${found[1]!.toLowerCase()})` };
  }
}

/** js-yaml's reason, without anything it quotes from the text (a tag's name, a key). */
const plainReason = (reason: string): string => reason.replace(/\s*["'!<].*$/s, "").trim();
