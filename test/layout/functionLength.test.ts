/**
 * Short functions: no function, method, constructor, accessor or arrow function in src/ spans more than
 * MAX_LINES lines unless ALLOWED names it with the reason. A function's length is the lines its body spans, from the
 * opening `{` to the closing `}` (an expression-bodied arrow: the expression's lines), nested functions included:
 * a closure reads and writes its enclosing function's state, so a reader holds both in mind. Each nested function
 * is also measured on its own.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const MAX_LINES = 150;

/** `file:function` → why it stays longer than MAX_LINES. Keep it short; a new entry needs a reason a reviewer accepts. */
const ALLOWED: Record<string, string> = {};

const root = join(import.meta.dirname, "..", "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** A readable name for a function node: its own name, the variable or property it is assigned to, or its line. */
function nameOf(node: ts.FunctionLikeDeclaration, sf: ts.SourceFile): string {
  const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  const own = node.name && !ts.isComputedPropertyName(node.name) ? node.name.getText(sf) : undefined;
  const parent = node.parent;
  const assigned =
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
    !ts.isComputedPropertyName(parent.name)
      ? parent.name.getText(sf)
      : undefined;
  if (own === undefined && assigned === undefined && !ts.isConstructorDeclaration(node)) {
    // a callback: named after the function it is written in (stable when lines move above it)
    let up: ts.Node | undefined = parent;
    while (up !== undefined && !(ts.isFunctionLike(up) && "body" in up)) up = up.parent;
    return up === undefined ? `<callback@${line}>` : `${nameOf(up as ts.FunctionLikeDeclaration, sf)}/<callback>`;
  }
  const name = ts.isConstructorDeclaration(node) ? "constructor" : (own ?? assigned ?? "");
  const cls = ts.isClassLike(parent) && parent.name ? `${parent.name.text}.` : "";
  return `${cls}${name}`;
}

interface Measured {
  where: string;
  lines: number;
}

function measureFile(path: string): Measured[] {
  const sf = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
  const file = relative(root, path).split("\\").join("/");
  const out: Measured[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const fn = node as ts.FunctionLikeDeclaration;
      const body = fn.body as ts.Node;
      const first = sf.getLineAndCharacterOfPosition(body.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(body.getEnd()).line;
      out.push({ where: `${file}:${nameOf(fn, sf)}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe("function length in src/", () => {
  const measured = sourceFiles(join(root, "src")).flatMap(measureFile);

  it("measures every function of the tree", () => {
    // the checker must see the tree: hundreds of functions, some of them long enough to be near the limit
    expect(measured.length).toBeGreaterThan(1000);
    expect(Math.max(...measured.map((m) => m.lines))).toBeGreaterThan(MAX_LINES / 2);
  });

  it(`has no function over ${MAX_LINES} lines outside the allow-list`, () => {
    const long = measured
      .filter((m) => m.lines > MAX_LINES && !Object.hasOwn(ALLOWED, m.where))
      .map((m) => `${m.where} (${m.lines} lines)`);
    expect(long).toEqual([]);
  });

  it("allows only functions that exist and are still long", () => {
    const stale = Object.keys(ALLOWED).filter((w) => !measured.some((m) => m.where === w && m.lines > MAX_LINES));
    expect(stale).toEqual([]);
  });
});
