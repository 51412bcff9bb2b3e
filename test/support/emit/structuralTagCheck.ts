import type { XgCompiled, XgCompiler, XGrammar } from "../../../bench/loadXGrammar.js";
import type { CompiledGrammar } from "../../../src/CompiledGrammar.js";
import { compileTools } from "../../../src/compile.js";
import { ToolgramError } from "../../../src/errors.js";
import { FORMAT_NAMES } from "../../../src/formats/index.js";
import type { StructuralTag } from "../../../src/emit/toStructuralTag.js";
import type { FormatName } from "../../../src/formats/FormatName.js";
import { parseToolCalls } from "../../../src/parser/parseToolCalls.js";
import { type CallToRender, renderToolCalls } from "../../../src/parser/renderToolCalls.js";
import type { ParseResult } from "../../../src/parser/types.js";
import { sampleGrammar } from "../../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../../src/util/seededRandom.js";

/** XGrammar's structural-tag compile (web-xgrammar 0.1.27 has it; the benchmark's typed subset leaves it out). */
export function compileStructuralTag(compiler: XgCompiler, st: StructuralTag): Promise<XgCompiled> {
  return (compiler as XgCompiler & { compileStructuralTag(s: unknown): Promise<XgCompiled> }).compileStructuralTag(st);
}

/** XGrammar's verdict on each whole text (matched character by character, then required to be finished). */
export async function accepted(xg: XGrammar, compiled: XgCompiled, texts: readonly string[]): Promise<boolean[]> {
  const out: boolean[] = [];
  for (const t of texts) {
    const m = await xg.GrammarMatcher.createGrammarMatcher(compiled, undefined, true);
    out.push(m._acceptString(t) && m.isTerminated());
    m.dispose();
  }
  return out;
}

/** Parses a turn as the compiled grammar's format and reasoning say (tolerant: XGrammar's JSON spacing is free). */
export function parseTurn(
  c: CompiledGrammar,
  tools: readonly unknown[],
  text: string,
  mode: "strict" | "tolerant" = "tolerant",
): ParseResult {
  const r = c.reasoning;
  return parseToolCalls(text, {
    tools,
    format: c.format as FormatName,
    mode,
    ...(r === null ? {} : { reasoning: r.mode, reasoningMarkers: { open: r.open, close: r.close } }),
  });
}

/**
 * toolgram's renders of seeded call lists: turns sampled from the compiled grammar (seeded; the grammar writes
 * exactly the canonical render of a turn). A structural tag's per-tool prefix holds no call id, so a turn whose calls
 * carry one is read back strictly and rendered again without the ids (and without its free text).
 */
export function seededRenders(c: CompiledGrammar, tools: readonly unknown[], seed: number, n: number): string[] {
  const random = seededRandom(seed);
  const out: string[] = [];
  for (let i = 0; i < n * 4 && out.length < n; i++) {
    const text = sampleGrammar(c.grammar, random, { extraRepeats: 2, maxLength: 1500 });
    if (text === undefined) continue;
    const r = parseTurn(c, tools, text, "strict");
    if (r.issues.length > 0 || r.dropped > 0 || !r.calls.every((call) => call.valid)) continue;
    if (r.calls.every((call) => call.id === undefined)) {
      out.push(text);
      continue;
    }
    const calls: CallToRender[] = r.calls.map((call) => ({ name: call.name, arguments: call.arguments }));
    out.push(
      renderToolCalls(calls, c.format as FormatName, {
        ...(r.reasoning === undefined ? {} : { reasoning: r.reasoning }),
        ...(c.reasoning === null ? {} : { reasoningMarkers: { open: c.reasoning.open, close: c.reasoning.close } }),
      }),
    );
  }
  return out;
}

/** The formats whose turn has a structural tag, and the refusal of each other one. */
export function splitFormats(tools: readonly unknown[]): { tagged: string[]; refused: Map<string, string> } {
  const tagged: string[] = [];
  const refused = new Map<string, string>();
  for (const format of FORMAT_NAMES) {
    try {
      compileTools(tools, { format, toolChoice: "required" }).toStructuralTag();
      tagged.push(format);
    } catch (e) {
      if (!(e instanceof ToolgramError)) throw e;
      refused.set(format, e.message);
    }
  }
  return { tagged, refused };
}
