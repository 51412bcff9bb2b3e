import { afterAll, describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/json.js";
import { parserToolReads } from "../../src/parser/toolValidators.js";
import { modelChatFor } from "../../src/prompt/ModelChat.js";
import type { ChatRequest } from "../../src/server/ChatRequest.js";
import { CompileWorker } from "../../src/server/CompileWorker.js";
import { GrammarCache } from "../../src/server/GrammarCache.js";
import type { ParserJob } from "../../src/server/parserJob.js";
import { TurnAssembler, type Delta } from "../../src/server/TurnAssembler.js";
import { TurnReader } from "../../src/server/TurnReader.js";
import { TOOLS } from "../support/server/serverHarness.js";

/**
 * A turn's text is read into deltas only once the tools' strict parser has come from the parser worker: until then
 * it is queued (reading a call's end would compile the recognizer and validators on the event loop), and what is read
 * then equals what an assembler reading the text as it came gives.
 */
const worker = new CompileWorker();
afterAll(() => worker.close());

const chat = modelChatFor(undefined);
const turn = { format: chat.format, reasoning: "none" } as const;
const request = { stop: [] as string[] } as unknown as ChatRequest;
const text = [
  "<tool_call>",
  '\n{"name": "get_weather", ',
  '"arguments": {"city": "Oslo"}}',
  "\n</tool_call>",
  "\n<tool_call>",
  '\n{"name": "get_weather", "arguments": {"city": 3}}\n</tool_call>',
];

/** A parser compiler that asks the real worker only once `open` is called. */
function gatedCompiler(): {
  compile: (job: ParserJob) => ReturnType<CompileWorker["prepareParser"]>;
  open: () => void;
} {
  let open = (): void => undefined;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { compile: async (job) => gate.then(() => worker.prepareParser(job)), open: () => open() };
}

function reader(cache: GrammarCache, deltas: Delta[]): TurnReader {
  const tools = structuredClone(TOOLS) as unknown as JsonObject[];
  return new TurnReader(
    { grammars: cache, chat },
    { request, grammar: { grammar: undefined, tools, json: false }, turn },
    (d) => deltas.push(d),
  );
}

describe("TurnReader", () => {
  it("queues the text until the parser worker's parts come, then reads it as it came", async () => {
    const gated = gatedCompiler();
    const cache = new GrammarCache({ maxEntries: 4, maxBytes: 1 << 20, parserCompiler: gated.compile });
    const deltas: Delta[] = [];
    const r = reader(cache, deltas);
    const normalized = parserToolReads.normalized;
    r.start();
    for (const t of text) r.push(t, () => undefined);
    // both calls ended in the text, and nothing was read: no part was compiled on this thread to read them
    expect(deltas).toEqual([]);
    expect(cache.stats.parserJobs).toBe(1);
    gated.open();
    const assembler = await r.end();
    // the tools were normalized for the parser on the worker only, not here
    expect(parserToolReads.normalized).toBe(normalized);

    const direct = new TurnAssembler({
      format: chat.format,
      tools: structuredClone(TOOLS) as unknown as JsonObject[],
      stop: [],
    });
    const expected = text.flatMap((t) => direct.push(t));
    expected.push(...direct.end());
    // the same deltas, but for the minted call ids
    const noIds = (ds: Delta[]): string => JSON.stringify(ds).replace(/"id":"call_[A-Za-z0-9]+"/g, '"id":"…"');
    expect(noIds(deltas)).toBe(noIds(expected));
    expect(deltas.length).toBeGreaterThan(2);
    expect(assembler.turn.calls.map((c) => c.arguments)).toEqual(['{"city": "Oslo"}', '{"city": 3}']);
  });

  it("reads at once a tool set whose parser has come, and asks for it once", async () => {
    const cache = new GrammarCache({
      maxEntries: 4,
      maxBytes: 1 << 20,
      parserCompiler: (job) => worker.prepareParser(job),
    });
    const first = reader(cache, []);
    first.start();
    await first.end();
    // the parts came while the first turn ended; a second turn with equal tools reads each text as it is pushed
    const deltas: Delta[] = [];
    const second = reader(cache, deltas);
    second.start();
    second.push(text[0] as string, () => undefined);
    second.push(`${text[1]}${text[2]}${text[3]}`, () => undefined);
    expect(deltas.length).toBeGreaterThan(0);
    expect(cache.stats.parserJobs).toBe(1);
  });

  it("reads nothing more of a failed generation", async () => {
    const gated = gatedCompiler();
    const cache = new GrammarCache({ maxEntries: 4, maxBytes: 1 << 20, parserCompiler: gated.compile });
    const deltas: Delta[] = [];
    const r = reader(cache, deltas);
    r.start();
    r.push(text[0] as string, () => undefined);
    expect(() => r.abandon(new Error("the model failed"))).toThrow("the model failed");
    gated.open();
    await r.end().catch(() => undefined);
    expect(deltas).toEqual([]);
  });
});
