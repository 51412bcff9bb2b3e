import { readFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The parts of @mlc-ai/web-xgrammar the benchmark uses (its own .d.ts is not importable from ESM). */
export interface XgMatcher {
  getNextTokenBitmask(): Promise<Int32Array>;
  acceptToken(id: number): boolean;
  rollBack(n: number): void;
  isTerminated(): boolean;
  /** Accepts text character by character (XGrammar's test helper). */
  _acceptString(text: string): boolean;
  dispose(): void;
}
export interface XgCompiled {
  dispose(): void;
}
export interface XgCompiler {
  compileJSONSchema(
    schema: string,
    anyWhitespace?: boolean,
    indent?: number,
    separators?: [string, string],
    strictMode?: boolean,
  ): Promise<XgCompiled>;
  compileGrammar(ebnf: string, rootRule?: string): Promise<XgCompiled>;
  dispose(): void;
}
export interface XgGrammar {
  toString(): string;
  dispose(): void;
}
export interface XGrammar {
  Grammar: {
    fromJSONSchema(
      schema: string,
      anyWhitespace?: boolean,
      indent?: number,
      separators?: [string, string],
      strictMode?: boolean,
    ): Promise<XgGrammar>;
    fromEBNF(ebnf: string, rootRule?: string): Promise<XgGrammar>;
  };
  TokenizerInfo: {
    createTokenizerInfo(
      vocab: string[],
      vocabType?: string,
      prependSpace?: boolean,
      size?: number,
      stop?: number[],
    ): Promise<{ dispose(): void }>;
  };
  GrammarCompiler: { createGrammarCompiler(info: unknown, cacheEnabled?: boolean): Promise<XgCompiler> };
  GrammarMatcher: {
    createGrammarMatcher(
      cg: XgCompiled,
      overrideStopTokens?: number[],
      terminateWithoutStopToken?: boolean,
    ): Promise<XgMatcher>;
  };
}

/** The package is a CommonJS bundle inside a `"type": "module"` package: compile it as CommonJS by hand. */
export function loadXGrammar(): XGrammar {
  const require = createRequire(import.meta.url);
  let pkgDir: string;
  try {
    pkgDir = dirname(require.resolve("@mlc-ai/web-xgrammar/package.json"));
  } catch {
    pkgDir = join(dirname(require.resolve("@mlc-ai/web-xgrammar")), "..");
  }
  const file = join(pkgDir, "lib", "index.js");
  type CjsModule = { filename: string; paths: string[]; exports: unknown; _compile(src: string, file: string): void };
  const M = Module as unknown as { new (id: string): CjsModule; _nodeModulePaths(dir: string): string[] };
  const m = new M(file);
  m.filename = file;
  m.paths = M._nodeModulePaths(dirname(file));
  m._compile(readFileSync(file, "utf8"), file);
  const ex = m.exports as XGrammar & { default?: XGrammar };
  return ex.TokenizerInfo ? ex : ex.default!;
}
