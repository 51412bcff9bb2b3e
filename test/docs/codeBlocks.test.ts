import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

/**
 * Every ```ts block of README.md and docs/**\/*.md typechecks against the project's sources, imported by the package's
 * own names ("toolgram", "toolgram/llama-cpp", ... read from package.json "exports"). The blocks are fragments, so
 * the names they take as given (a tool list, a tokenizer.json, a model's forward pass) are declared once below. A
 * block that cannot typecheck is marked ```ts no-check: REASON, and must give its reason. The examples that run are
 * in test/llama-cpp/readmeExamples.long.test.ts and test/server/readmeServe.test.ts.
 */
const root = join(import.meta.dirname, "..", "..");

/** What the blocks take as given: declared, not defined, since only their types are checked. */
const GIVEN = `
type Json = import("toolgram").JsonValue;
declare const tools: Json[];
declare const messages: { role: "user"; content: string }[];
declare const url: string;
declare const text: string;
declare const chunks: string[];
declare const jsonSchema: Json;
declare const tokenizerJson: Json;
declare const qwen3Template: string;
declare const prompt: string;
declare const id: number;
declare const tokensLeft: number;
declare const n: number;
declare const ids: number[];
declare function forward(ids: number[]): Promise<Float32Array>;
declare function sample(logits: Float32Array): number;
/** A transformers.js model and its tokenized inputs. */
declare const model: { generate(options: Record<string, unknown>): Promise<unknown> };
declare const inputs: Record<string, unknown>;
`;

interface Block {
  file: string;
  line: number;
  code: string;
  info: string;
}

function markdownFiles(): string[] {
  const files = [join(root, "README.md")];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith(".") || e.name === "public" || e.name === "node_modules") continue;
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith(".md")) files.push(join(dir, e.name));
    }
  };
  walk(join(root, "docs"));
  return files;
}

/** The fenced ```ts (or ```typescript) blocks of a Markdown text, with the rest of their info string. */
function tsBlocks(file: string, markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(?:ts|typescript)(?:\s+(.*))?$/.exec(lines[i]);
    if (!open) {
      if (lines[i].startsWith("```")) while (++i < lines.length && lines[i] !== "```");
      continue;
    }
    const start = i;
    while (++i < lines.length && lines[i] !== "```");
    blocks.push({ file, line: start + 1, code: lines.slice(start + 1, i).join("\n"), info: (open[1] ?? "").trim() });
  }
  return blocks;
}

/** "toolgram", "toolgram/llama-cpp", ...: each code entry of package.json's exports, mapped to its source. */
function packagePaths(): Record<string, string[]> {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    name: string;
    exports: Record<string, string | { import?: string }>;
  };
  const paths: Record<string, string[]> = {};
  for (const [key, target] of Object.entries(pkg.exports)) {
    const js = typeof target === "string" ? target : target.import;
    if (js === undefined || !js.startsWith("./dist/") || !js.endsWith(".js")) continue;
    const name = key === "." ? pkg.name : `${pkg.name}/${key.slice(2)}`;
    paths[name] = [join(root, "src", `${js.slice("./dist/".length, -".js".length)}.ts`)];
  }
  return paths;
}

const blocks = markdownFiles().flatMap((f) => tsBlocks(relative(root, f), readFileSync(f, "utf8")));
// inside the checkout (.cache/ is ignored), so that packages a block imports resolve from its node_modules
mkdirSync(join(root, ".cache"), { recursive: true });
const dir = mkdtempSync(join(root, ".cache", "doc-blocks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("TypeScript blocks of the README and docs/", () => {
  it("finds the blocks", () => {
    expect(blocks.length).toBeGreaterThan(5);
    expect(blocks.some((b) => b.file === "README.md")).toBe(true);
  });

  it("a block left unchecked says why (```ts no-check: REASON)", () => {
    for (const b of blocks.filter((b) => b.info !== "")) {
      expect(b.info, `${b.file}:${b.line}`).toMatch(/^no-check:\s*\S.{8,}/);
    }
  });

  it("every other block typechecks against the sources", { timeout: 120_000 }, () => {
    const checked = blocks.filter((b) => !b.info.startsWith("no-check"));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "given.d.ts"), GIVEN);
    const files = checked.map((b, i) => {
      const path = join(dir, `block${i}.mts`);
      // a block is a module of its own (top-level await, its own imports), even one without imports
      writeFileSync(path, `${b.code}\nexport {};\n`);
      return { block: b, path };
    });
    const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
    const program = ts.createProgram({
      rootNames: [join(dir, "given.d.ts"), ...files.map((f) => f.path)],
      options: {
        ...options,
        noEmit: true,
        declaration: false,
        sourceMap: false,
        rootDir: undefined,
        outDir: undefined,
        paths: packagePaths(),
        typeRoots: [join(root, "node_modules", "@types")],
        // a fragment may declare a name only to show it
        noUnusedLocals: false,
      },
    });
    const problems: string[] = [];
    for (const { block, path } of files) {
      const source = program.getSourceFile(path);
      if (!source) throw new Error(`not in the program: ${path}`);
      for (const d of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
        const { line } = source.getLineAndCharacterOfPosition(d.start ?? 0);
        problems.push(
          `${block.file}:${block.line + 1 + line}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
        );
      }
    }
    expect(problems).toEqual([]);
  });
});
