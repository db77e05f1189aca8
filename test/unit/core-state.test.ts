import { test } from "uvu";
import * as assert from "uvu/assert";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { REPO } from "../helpers/cli.js";

/**
 * The core keeps nothing between calls: what a run works out goes in its memo (core/run-memo.ts), which the I/O
 * layer makes per run. What may sit at a module's top level: constants never changed (a Set or Map typed
 * ReadonlySet/ReadonlyMap, frozen objects, plain values), and lazyConstant's values (the same in every run).
 * This reads the sources with TypeScript (names resolved, so a local that shadows a top-level name is not one).
 */
function moduleState(sources: Record<string, string>): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    noEmit: true,
    allowJs: false,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const read = (file: string) => sources[file] ?? sources[file.replace(/\.js$/, ".ts")];
  const program = ts.createProgram({
    rootNames: Object.keys(sources),
    options,
    host: {
      ...host,
      fileExists: (file) => read(file) !== undefined,
      directoryExists: (dir) => Object.keys(sources).some((file) => file.startsWith(`${dir}/`)),
      realpath: (path) => path,
      readFile: read,
      getSourceFile: (file, version) => {
        const text = read(file);
        return text === undefined ? undefined : ts.createSourceFile(file, text, version, true);
      },
    },
  });
  const checker = program.getTypeChecker();
  const problems: string[] = [];
  const where = (node: ts.Node) => {
    const file = node.getSourceFile();
    return `${file.fileName}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  };
  /** The top-level variable declaration a name stands for (through imports), if it is one. */
  const topLevel = (name: ts.Node): ts.VariableDeclaration | undefined => {
    if (!ts.isIdentifier(name)) return undefined;
    let symbol = checker.getSymbolAtLocation(name);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    return symbol?.declarations?.find(
      (d): d is ts.VariableDeclaration => ts.isVariableDeclaration(d) && ts.isVariableStatement(d.parent.parent) && ts.isSourceFile(d.parent.parent.parent),
    );
  };
  /** The name an access path starts from: `a` of `a.b[c].d`. */
  const rootOf = (node: ts.Expression): ts.Expression => {
    let at = node;
    while (
      ts.isPropertyAccessExpression(at) ||
      ts.isElementAccessExpression(at) ||
      ts.isNonNullExpression(at) ||
      ts.isParenthesizedExpression(at) ||
      ts.isAsExpression(at)
    )
      at = at.expression;
    return at;
  };
  const mutated = (target: ts.Expression, how: string) => {
    const declaration = topLevel(rootOf(target));
    if (declaration) problems.push(`${where(target)}: ${how} ${declaration.name.getText()}, a top-level binding of ${declaration.getSourceFile().fileName}`);
  };
  const MUTATORS = new Set(["push", "pop", "shift", "unshift", "splice", "sort", "reverse", "fill", "copyWithin", "set", "add", "delete", "clear"]);
  const ASSIGNMENTS = new Set([
    ts.SyntaxKind.EqualsToken,
    ts.SyntaxKind.PlusEqualsToken,
    ts.SyntaxKind.MinusEqualsToken,
    ts.SyntaxKind.AsteriskEqualsToken,
    ts.SyntaxKind.SlashEqualsToken,
    ts.SyntaxKind.BarBarEqualsToken,
    ts.SyntaxKind.AmpersandAmpersandEqualsToken,
    ts.SyntaxKind.QuestionQuestionEqualsToken,
    ts.SyntaxKind.BarEqualsToken,
    ts.SyntaxKind.AmpersandEqualsToken,
  ]);
  const isFunction = (node: ts.Node) => ts.isFunctionLike(node) && !ts.isCallSignatureDeclaration(node);
  /** A function called where it is written, `(() => …)()`: its body runs as the module loads. */
  const calledAtOnce = (fn: ts.Node) => {
    let at = fn.parent;
    while (at && ts.isParenthesizedExpression(at)) at = at.parent;
    if (at === undefined || !ts.isCallExpression(at)) return false;
    let callee: ts.Expression = at.expression;
    while (ts.isParenthesizedExpression(callee)) callee = callee.expression;
    return callee === fn;
  };

  for (const file of program.getSourceFiles()) {
    if (!Object.hasOwn(sources, file.fileName)) continue;
    // Everywhere: what changes a top-level binding, and a regexp whose lastIndex carries over.
    const everywhere = (node: ts.Node): void => {
      if (ts.isBinaryExpression(node) && ASSIGNMENTS.has(node.operatorToken.kind)) mutated(node.left, "assigns to");
      else if (
        (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
        (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)
      )
        mutated(node.operand, "counts");
      else if (ts.isDeleteExpression(node)) mutated(node.expression, "deletes from");
      else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const { expression: object, name } = node.expression;
        if (MUTATORS.has(name.text)) mutated(object, `.${name.text}() changes`);
        if (
          /^Object\.(assign|defineProperty|defineProperties|setPrototypeOf)$|^Reflect\.(set|defineProperty|deleteProperty)$/.test(node.expression.getText()) &&
          node.arguments[0]
        )
          mutated(node.arguments[0], "changes");
      }
      if (ts.isPropertyAccessExpression(node) && ["test", "exec", "lastIndex"].includes(node.name.text)) {
        const init = topLevel(node.expression)?.initializer;
        if (init && ts.isRegularExpressionLiteral(init) && /\/[a-z]*[gy][a-z]*$/.test(init.text))
          problems.push(`${where(node)}: .${node.name.text} on a global regexp kept at the top level (its lastIndex carries over)`);
      }
      ts.forEachChild(node, everywhere);
    };
    everywhere(file);
    // What runs as the module loads (outside functions, inside immediately called ones).
    const atLoad = (node: ts.Node): void => {
      if (isFunction(node) && !calledAtOnce(node)) return;
      // A field is made per instance: a class's instances belong to whoever makes them.
      if (ts.isPropertyDeclaration(node) && !node.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) return;
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && ["Map", "Set", "WeakMap", "WeakSet", "Array"].includes(node.expression.text)) {
        const declared = ts.isVariableDeclaration(node.parent) && node.parent.initializer === node ? node.parent.type?.getText() : undefined;
        if (!/^Readonly(Set|Map)\b/.test(declared ?? ""))
          problems.push(
            `${where(node)}: a ${node.expression.text} made at load (type it ReadonlySet/ReadonlyMap if it never changes, else it belongs in the run's memo)`,
          );
      }
      if (ts.isCallExpression(node) && /^memoize$/.test(node.expression.getText()))
        problems.push(`${where(node)}: memoize at load keeps answers for the process's life (the run's memo keeps them for a run)`);
      ts.forEachChild(node, atLoad);
    };
    for (const statement of file.statements) {
      if (ts.isVariableStatement(statement) && !(statement.declarationList.flags & ts.NodeFlags.Const))
        problems.push(`${where(statement)}: a top-level let or var`);
      atLoad(statement);
    }
  }
  return problems;
}

function coreSources(): Record<string, string> {
  const sources: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts")) sources[`/${relative(REPO, path)}`] = readFileSync(path, "utf8");
    }
  };
  walk(join(REPO, "src/core"));
  return sources;
}

test("the core keeps no state between calls: no top-level let, no collection made at load that may change, no top-level binding changed", () => {
  assert.equal(moduleState(coreSources()), []);
});

test("the check finds each way a module can keep state, through imports and in immediately called functions, and lets constants be", () => {
  const problems = moduleState({
    "/core/cache.ts": [
      "let count = 0;",
      "export const seen = new Map<string, number>();",
      "export const table = { hits: 0 };",
      "const held = (() => { const inner = new Set<string>(); return inner; })();",
      "const G = /x/g;",
      "export function note(key: string): boolean { count++; table.hits += 1; return G.test(key); }",
      "const answers = memoize((x: string) => x);",
      "function memoize<T>(f: T): T { return f; }",
    ].join("\n"),
    "/core/user.ts": ['import { seen } from "./cache.js";', "export function use(): void { seen.set('a', 1); }"].join("\n"),
    "/core/fine.ts": [
      'const WORDS: ReadonlySet<string> = new Set(["a"]);',
      "const FROZEN = Object.freeze({ a: 1 });",
      "const R = /x/g;",
      "export function ok(text: string): string { const seen = new Map<string, number>(); seen.set(text, 1); const table = { hits: 0 }; table.hits++; return text.replace(R, '') + WORDS.has(text) + FROZEN.a; }",
      "const make = () => new Map<string, number>();",
    ].join("\n"),
  });
  const at = (file: string) => problems.filter((p) => p.startsWith(file)).map((p) => p.slice(0, p.indexOf(":", file.length + 1)));
  assert.equal(at("/core/fine.ts"), []);
  assert.equal(at("/core/user.ts"), ["/core/user.ts:2"], "a Map of another module changed through its import");
  assert.equal(
    at("/core/cache.ts").sort(),
    ["/core/cache.ts:1", "/core/cache.ts:2", "/core/cache.ts:4", "/core/cache.ts:6", "/core/cache.ts:6", "/core/cache.ts:6", "/core/cache.ts:7"].sort(),
    problems.join("\n"),
  );
});

test.run();
