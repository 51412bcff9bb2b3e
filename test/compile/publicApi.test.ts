import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as api from "../../src/index.js";
import { API_DIR, apiEntries, reportedNames } from "../../scripts/api-report.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

type Meaning = "value" | "type";

/**
 * The names each entry's source module exports, read from src/ syntactically: each `export … from` is followed to the
 * declaration it names, which says whether the name is a value (function, class, const, enum) or a type. No build and
 * no type checker: a checker over the entries' import graph loads ≈550 files (≈17 s on a loaded 2-core machine), this
 * parses the ≈60 modules the barrels reach. Signatures are compared by `npm run api:check` (API Extractor on the
 * build); this test keeps `npm test` failing on a name added, removed, or turned from value to type without a
 * matching report.
 */
function sourceNames(): Map<string, Map<string, Meaning>> {
  const parsed = new Map<string, ts.SourceFile>();
  const parse = (file: string): ts.SourceFile => {
    let sf = parsed.get(file);
    if (sf === undefined) {
      sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, false);
      parsed.set(file, sf);
    }
    return sf;
  };
  const resolve = (from: string, specifier: string) => join(dirname(from), specifier.replace(/\.js$/, ".ts"));

  /** What `name` means in `file`, following re-exports; undefined when the module does not export it. */
  function meaningOf(file: string, name: string): Meaning | undefined {
    for (const st of parse(file).statements) {
      if (ts.isExportDeclaration(st)) {
        const target =
          st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
        if (target === undefined) continue;
        if (st.exportClause === undefined) {
          const m = meaningOf(resolve(file, target), name);
          if (m !== undefined) return m;
        } else if (ts.isNamedExports(st.exportClause)) {
          const spec = st.exportClause.elements.find((e) => e.name.text === name);
          if (spec !== undefined) return meaningOf(resolve(file, target), (spec.propertyName ?? spec.name).text);
        }
        continue;
      }
      const declared = ts.isVariableStatement(st)
        ? st.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === name)
        : (ts.isFunctionDeclaration(st) ||
            ts.isClassDeclaration(st) ||
            ts.isEnumDeclaration(st) ||
            ts.isInterfaceDeclaration(st) ||
            ts.isTypeAliasDeclaration(st)) &&
          st.name?.text === name;
      if (!declared) continue;
      return ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) ? "type" : "value";
    }
    return undefined;
  }

  const out = new Map<string, Map<string, Meaning>>();
  for (const entry of apiEntries()) {
    const file = join(ROOT, entry.source);
    const names = new Map<string, Meaning>();
    for (const st of parse(file).statements) {
      if (!ts.isExportDeclaration(st) || st.exportClause === undefined || !ts.isNamedExports(st.exportClause)) {
        // the barrels re-export by name; anything else would escape this check
        if (
          (ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) ||
          ts.isExportDeclaration(st)
        ) {
          throw new Error(
            `${entry.source}: export the public API by name (\`export { … } from\`), not \`${st.getText(parse(file)).slice(0, 40)}…\``,
          );
        }
        continue;
      }
      const target = (st.moduleSpecifier as ts.StringLiteral).text;
      for (const spec of st.exportClause.elements) {
        const meaning = meaningOf(resolve(file, target), (spec.propertyName ?? spec.name).text);
        if (meaning === undefined) throw new Error(`${entry.source}: ${spec.name.text} not found in ${target}`);
        names.set(spec.name.text, meaning);
      }
    }
    out.set(entry.specifier, names);
  }
  return out;
}

const sorted = (names: Map<string, string>): string[] => [...names].map(([n, k]) => `${n} (${k})`).sort();

describe("public API", () => {
  const fromSource = sourceNames();

  for (const entry of apiEntries()) {
    it(`${entry.specifier} exports exactly the names of api/${entry.reportFile}`, () => {
      let report: string;
      try {
        report = readFileSync(join(API_DIR, entry.reportFile), "utf8");
      } catch {
        throw new Error(`api/${entry.reportFile} is missing: run \`npm run api:update\` and commit it`);
      }
      // a difference here is a change of the public API: deliberate ones update the report (`npm run api:update`)
      expect(sorted(fromSource.get(entry.specifier) ?? new Map())).toEqual(sorted(reportedNames(report)));
    });
  }

  it("the root entry has no default export and compileTools returns a CompiledGrammar", () => {
    expect("default" in api).toBe(false);
    expect(api.compileTools([{ name: "a" }])).toBeInstanceOf(api.CompiledGrammar);
  });
});
