/**
 * The layout's promise, checked on the source: no file-level import circle in src/, and data flows one way — a stage
 * never imports a later one (the compiler never imports the parser; the grammar IR never imports lowering; the
 * format descriptions import nothing but the foundation's errors and JSON). Each folder (and each file at the top of src/) has a layer;
 * a file may import files of its own layer or a lower one. A new folder must be given a layer here.
 */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { folderOf, importCircles, readImportGraph } from "../support/importGraph.js";

const LAYERS: Record<string, number> = {
  // foundation: errors, options, the one clock, JSON spelling
  "errors.ts": 0,
  "diagnostic.ts": 0,
  "json.ts": 0,
  "options.ts": 0,
  "Deadline.ts": 0,
  "cacheDir.ts": 0,
  // helpers of every stage (bounded per-process tables, JSON Pointer, the seeded PRNG)
  util: 0,
  // IRs and plain data
  grammar: 1,
  formats: 1,
  schema: 1,
  regex: 2,
  tools: 2,
  lower: 3,
  envelope: 4,
  emit: 4,
  gguf: 5,
  vocab: 6,
  automaton: 7,
  "compile.ts": 8,
  "CompiledGrammar.ts": 8,
  "ToolFragmentCache.ts": 8,
  // readers of model output and templates may use the compiler, never the reverse
  parser: 9,
  templates: 9,
  // a conversation written as a model's prompt (chat templates, toolgram's Qwen3 renderer): for llama-cpp and server
  prompt: 10,
  convert: 10,
  dataset: 10,
  logits: 10,
  conformance: 10,
  "llama-cpp": 11,
  testing: 12,
  // the public barrels
  "index.ts": 13,
  "testing.ts": 13,
  "node.ts": 13,
  // applications on top of the public API
  server: 14,
  cli: 14,
};

/**
 * Imports against the stages, each with why it stays. The structural tag of a turn is the text of one call cut around
 * its arguments, and that text is the renderer's (the call-unit codecs live with the parser, which reads the same
 * text back); deriving it from the unit grammars instead would need the padding and list layout the envelope adds
 * around units, which the codecs already write.
 */
const BACKWARD_EDGES: Record<string, string> = {
  "emit/toStructuralTag.ts → parser/units/callUnit.ts": "a call unit's canonical text, cut around its arguments",
};

function layerOf(file: string): number {
  const key = folderOf(file) === "." ? file : folderOf(file);
  const layer = LAYERS[key];
  if (layer === undefined)
    throw new Error(`src/${file}: ${key} has no layer in test/layout/imports.test.ts; give it one`);
  return layer;
}

describe("src/ layout", () => {
  const graph = readImportGraph(join(import.meta.dirname, "..", "..", "src"));

  it("reads the whole tree", () => {
    expect(graph.files.length).toBeGreaterThan(100);
    expect(graph.edges.get("compile.ts")?.length ?? 0).toBeGreaterThan(5);
  });

  it("has no file-level import circle", () => {
    expect(importCircles(graph)).toEqual([]);
  });

  it("imports only from the same or an earlier stage", () => {
    const backwards: string[] = [];
    for (const [file, targets] of graph.edges) {
      for (const target of targets) {
        if (layerOf(target) > layerOf(file) && !(`${file} → ${target}` in BACKWARD_EDGES))
          backwards.push(`${file} → ${target}`);
      }
    }
    expect(backwards).toEqual([]);
  });
});

describe("the formats room", () => {
  const graph = readImportGraph(join(import.meta.dirname, "..", "..", "src"));
  it("src/formats is plain data: it imports only itself and the foundation's errors and JSON", () => {
    const outside: string[] = [];
    for (const [file, targets] of graph.edges) {
      if (!file.startsWith("formats/")) continue;
      for (const t of targets)
        if (!t.startsWith("formats/") && t !== "errors.ts" && t !== "json.ts") outside.push(`${file} → ${t}`);
    }
    expect(outside).toEqual([]);
  });
});

describe("the import graph reader", () => {
  it("finds a circle and the files in it", () => {
    const edges = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["a.ts"]],
    ]);
    expect(importCircles({ files: ["a.ts", "b.ts", "c.ts", "d.ts"], edges })).toEqual([["a.ts", "b.ts", "c.ts"]]);
    expect(importCircles({ files: ["x.ts"], edges: new Map([["x.ts", ["x.ts"]]]) })).toEqual([["x.ts"]]);
    expect(
      importCircles({
        files: ["a.ts", "b.ts"],
        edges: new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", []],
        ]),
      }),
    ).toEqual([]);
  });
});
