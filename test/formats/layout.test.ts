import { describe, expect, it } from "vitest";
import { importCycles, importGraph, reachable } from "./importGraph.js";

/**
 * The direction of the formats room (docs/ARCHITECTURE.md): src/formats is data that reads nothing of the stages
 * above it; the envelope (grammar of a turn) and the compiler never reach the parser; the parser may use the
 * compiler (strict mode's grammar check).
 */
describe("import direction around src/formats", () => {
  const graph = importGraph();
  const files = [...graph.keys()];

  it("src/formats imports only from src/formats and the shared leaves (errors, json)", () => {
    for (const f of files.filter((f) => f.startsWith("formats/"))) {
      for (const dep of graph.get(f)!) expect(dep.startsWith("formats/") || dep === "errors.ts" || dep === "json.ts", `${f} imports ${dep}`).toBe(true);
    }
  });

  it("the compiler and the envelope never reach the parser", () => {
    for (const start of ["compile.ts", "CompiledGrammar.ts", ...files.filter((f) => f.startsWith("envelope/"))]) {
      const parser = [...reachable(graph, start)].filter((f) => f.startsWith("parser/"));
      expect(parser, `${start} reaches the parser`).toEqual([]);
    }
  });

  it("no import circle through src/formats, src/envelope, src/parser or the compiler", () => {
    const mine = (f: string): boolean => /^(formats|envelope|parser)\//.test(f) || f === "compile.ts" || f === "CompiledGrammar.ts";
    expect(importCycles(graph).filter((c) => c.some(mine))).toEqual([]);
  });
});
