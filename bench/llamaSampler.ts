/**
 * llama.cpp's grammar sampler on three grammars for the same tools in the same envelope, teacher-forced over the same
 * valid tool calls: (a) toolgram's GBNF, (b) the GBNF of llama.cpp's own `examples/json_schema_to_grammar.py` (from the
 * llama.cpp source that node-llama-cpp ships), (c) node-llama-cpp's own JSON-schema grammar. Reports the grammar's
 * cost per token (time with the grammar minus time without it, same model, same forced tokens), GBNF sizes, and
 * whether llama.cpp loads each grammar, also for the 117- and 500-tool MCP sets.
 *
 * Teacher forcing: each step the true next token gets a large logit bias and node-llama-cpp is asked for the sampled
 * token's confidence, which makes its sampler apply the grammar to every candidate before the rest of the chain (as
 * it does whenever the model's first choice breaks the grammar). The forced token is then sampled and accepted by
 * the grammar, so every grammar walks exactly the same text.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LlamaGrammar, LlamaModel, Token } from "node-llama-cpp";
import { compileTools } from "../src/compile.js";
import { canonicalJson, type JsonValue } from "../src/json.js";
import { gbnfLiteral } from "../src/emit/toGbnf.js";
import { buildTinyModel, tinyModelPath } from "../src/gguf/buildTinyModel.js";
import { cacheDir } from "../src/cacheDir.js";
import { LlamaGrammarProbe } from "../src/llama-cpp/LlamaGrammarProbe.js";
import { llamaCppBundlePath } from "../src/llama-cpp/llamaServerBinary.js";
import { loadLlamaModel, loadNodeLlamaCpp } from "../src/llama-cpp/loadNodeLlamaCpp.js";
import { composedMcpTools, githubMcpTools } from "./toolSets.js";

const here = dirname(fileURLToPath(import.meta.url));
const ENVELOPE_OPEN = "<tool_call>\n";
const ENVELOPE_CLOSE = "\n</tool_call>";

interface ToolDef {
  name: string;
  parameters: JsonValue;
}

const toolDefs = (tools: unknown[]): ToolDef[] =>
  tools.map((t) => {
    const o = t as { function?: { name: string; parameters: JsonValue }; name?: string; inputSchema?: JsonValue };
    return o.function
      ? { name: o.function.name, parameters: o.function.parameters }
      : { name: o.name!, parameters: o.inputSchema! };
  });

/** The call object `{"name": …, "arguments": …}` for one of the tools, as a JSON Schema. */
const callSchemas = (tools: ToolDef[]): JsonValue[] =>
  tools.map((t) => ({
    type: "object",
    properties: { name: { const: t.name }, arguments: t.parameters },
    required: ["name", "arguments"],
    additionalProperties: false,
  }));

/** The GBNF of llama.cpp's `json_schema_to_grammar.py` for the call, wrapped in the same envelope. */
function pythonGbnf(tools: ToolDef[]): string {
  const script = llamaCppScript();
  const dir = mkdtempSync(join(tmpdir(), "toolgram-js2g-"));
  try {
    const file = join(dir, "schema.json");
    writeFileSync(file, JSON.stringify({ anyOf: callSchemas(tools) }));
    let out: string;
    try {
      out = execFileSync("python3", [script, "--prop-order", "name,arguments", file], {
        encoding: "utf8",
        maxBuffer: 64 << 20,
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (e) {
      // the script's own reason is the last line of its traceback
      const lines = String((e as { stderr?: string }).stderr ?? e)
        .trim()
        .split("\n");
      throw new Error(lines[lines.length - 1]);
    }
    return (
      `root ::= ${JSON.stringify(ENVELOPE_OPEN)} call ${JSON.stringify(ENVELOPE_CLOSE)}\n` +
      out.replace(/^root ::=/m, "call ::=")
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** llama.cpp's `examples/json_schema_to_grammar.py`, from the source bundle node-llama-cpp ships (cloned once into the cache). */
function llamaCppScript(): string {
  const bundle = llamaCppBundlePath();
  if (bundle === undefined) throw new Error("node-llama-cpp's llama.cpp source bundle is missing");
  const dir = join(cacheDir(), "llama-src");
  const script = join(dir, "examples", "json_schema_to_grammar.py");
  if (!existsSync(script)) {
    mkdirSync(dirname(dir), { recursive: true });
    rmSync(dir, { recursive: true, force: true });
    execFileSync("git", ["clone", "-q", bundle, dir]);
  }
  return script;
}

/** node-llama-cpp's JSON-schema grammar for the call (it reads `oneOf`, not `anyOf`), in the same envelope. */
async function nodeLlamaCppGbnf(model: LlamaModel, tools: ToolDef[]): Promise<string> {
  const g = await model.llama.createGrammarForJsonSchema({ oneOf: callSchemas(tools) } as never);
  // its root ends the text with blank lines (its own stop marker): the envelope closes the call instead
  const rules = g.grammar.replace(
    new RegExp(`^${g.rootRuleName} ::= (.*?)(?: "\\\\n\\\\n\\\\n\\\\n" \\[\\\\n\\]\\*)?$`, "m"),
    "nlc-call ::= $1",
  );
  return `root ::= ${JSON.stringify(ENVELOPE_OPEN)} nlc-call ${JSON.stringify(ENVELOPE_CLOSE)}\n${rules}`;
}

/** Weather calls with every property set (node-llama-cpp's JSON-schema grammar requires them all). */
function weatherCalls(): string[] {
  const cities = ["Paris", "São Paulo", "東京", "New York", "Zürich", "Reykjavík", "Cape Town", "Ελλάδα"];
  return cities.map((city, i) => {
    const call =
      i % 2 === 0
        ? { name: "get_weather", arguments: { city, unit: i % 4 === 0 ? "celsius" : "fahrenheit" } }
        : { name: "get_forecast", arguments: { city, days: 1 + ((i * 5) % 14) } };
    return ENVELOPE_OPEN + canonicalJson(call as unknown as JsonValue) + ENVELOPE_CLOSE;
  });
}

interface GrammarRow {
  label: string;
  gbnf: string | undefined;
  error?: string;
  loadMs?: number;
  grammar?: LlamaGrammar;
}

async function load(model: LlamaModel, label: string, make: () => string | Promise<string>): Promise<GrammarRow> {
  let gbnf: string | undefined;
  try {
    gbnf = await make();
    const t0 = performance.now();
    const grammar = await model.llama.createGrammar({ grammar: gbnf });
    return { label, gbnf, grammar, loadMs: performance.now() - t0 };
  } catch (e) {
    return { label, gbnf, error: String((e as Error).message ?? e).slice(0, 80) };
  }
}

/** Every token of every call is allowed and accepted by llama.cpp's grammar, and the end of generation after it. */
async function acceptsAll(model: LlamaModel, gbnf: string, calls: Token[][]): Promise<boolean> {
  const eos = model.tokens.eos;
  for (const ids of calls) {
    const probe = await LlamaGrammarProbe.create(model, gbnf);
    for (const id of ids) {
      if (!probe.allows(id)) return false;
      probe.accept(id);
    }
    if (eos !== null && !probe.allows(eos)) return false;
  }
  return true;
}

interface Timing {
  /** Wall-clock and process CPU milliseconds spent decoding the calls token by token (prompt excluded). */
  ms: number;
  cpuMs: number;
  tokens: number;
  diverged: number;
}

/**
 * Time spent decoding `calls` token by token (prompt excluded), with the grammar `gbnfOf(i)` for call i or without a
 * grammar. CPU time is the whole process's (llama.cpp's worker thread included): on a shared machine it moves far less
 * than wall time.
 */
async function teacherForced(
  model: LlamaModel,
  grammars: (LlamaGrammar | undefined)[] | undefined,
  prompt: Token[],
  calls: Token[][],
): Promise<Timing> {
  const { LlamaGrammarEvaluationState, TokenBias } = await loadNodeLlamaCpp();
  const context = await model.createContext({ contextSize: 1024, threads: 1, sequences: 1 });
  const t: Timing = { ms: 0, cpuMs: 0, tokens: 0, diverged: 0 };
  try {
    const sequence = context.getSequence();
    for (let c = 0; c < calls.length; c++) {
      const ids = calls[c];
      await sequence.clearHistory();
      const grammar = grammars?.[c];
      const state = grammar === undefined ? undefined : new LlamaGrammarEvaluationState({ model, grammar });
      let k = 0;
      const bias = () => new TokenBias(model.tokenizer).set(ids[k], { logit: 1000 });
      const it = sequence.evaluateWithMetadata(
        prompt,
        { confidence: true },
        { temperature: 0, grammarEvaluationState: state, tokenBias: bias },
      );
      // the first step evaluates the prompt: not timed
      let r = await it.next();
      for (; k < ids.length; ) {
        if (r.done || r.value.token !== ids[k]) {
          t.diverged++;
          break;
        }
        k++;
        if (k === ids.length) break;
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        r = await it.next(ids[k - 1]);
        t.ms += performance.now() - t0;
        const c1 = process.cpuUsage(c0);
        t.cpuMs += (c1.user + c1.system) / 1000;
        t.tokens++;
      }
      await it.return(undefined);
    }
  } finally {
    await context.dispose();
  }
  return t;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export interface LlamaSamplerResult {
  table: string;
  rows: { label: string; overheadMs: number; gbnfBytes: number }[];
}

export interface LlamaSamplerOptions {
  quick: boolean;
  /** Rounds over the calls (each round runs every grammar once, in turn); default 3, quick 1. */
  rounds?: number;
  /** More GBNF texts to measure on the same calls (e.g. other shapes of the same language), by label. */
  extra?: [string, string][];
  /** Skip the GBNF sizes of the MCP tool sets. */
  noSets?: boolean;
}

/**
 * The two reference rows: the floor (each call's grammar is that call's text as one literal: one stack at every
 * position, every candidate refused at its first code point but the forced one) and free text (one class repeated:
 * every code point of every candidate walked). What any grammar costs lies about between them.
 */
function referenceGrammars(texts: string[]): [string, (i: number) => string][] {
  return [
    ["floor: each call as one literal", (i) => `root ::= ${gbnfLiteral(texts[i])}\n`],
    ["free text: [\\x01-\\U0010FFFF]*", () => "root ::= [\\x01-\\U0010FFFF]*\n"],
  ];
}

export async function runLlamaSamplerBench(opts: LlamaSamplerOptions): Promise<LlamaSamplerResult> {
  const tiny = await buildTinyModel({ seed: 0, outPath: tinyModelPath(0) });
  const model = await loadLlamaModel(tiny.path);
  try {
    const weather = JSON.parse(readFileSync(join(here, "..", "examples", "weather.tools.json"), "utf8")) as unknown[];
    // the compile-time limit (5 s by default) is lifted: on a loaded machine the 500-tool compile can pass it, and
    // the time is what is reported
    const policy = {
      format: "qwen3",
      toolChoice: "required",
      parallel: false,
      limits: { maxCompileMs: 600_000 },
    } as const;
    const grammars = [
      await load(model, "(a) toolgram GBNF", () => compileTools(weather, policy).toGbnf()),
      await load(model, "(b) llama.cpp json_schema_to_grammar.py", () => pythonGbnf(toolDefs(weather))),
      await load(model, "(c) node-llama-cpp JSON-schema grammar", () => nodeLlamaCppGbnf(model, toolDefs(weather))),
    ];
    for (const [label, gbnf] of opts.extra ?? []) grammars.push(await load(model, label, () => gbnf));
    const texts = opts.quick ? weatherCalls().slice(0, 2) : weatherCalls();
    const calls = texts.map((t) => model.tokenize(t, true) as Token[]);
    const prompt = model.tokenize(
      "<|im_start|>user\nWhat is the weather in Paris?<|im_end|>\n<|im_start|>assistant\n",
      true,
    ) as Token[];
    const rounds = opts.rounds ?? (opts.quick ? 1 : 3);
    const runs: { label: string; grammars: (LlamaGrammar | undefined)[] | undefined; reference: boolean }[] = [
      { label: "none", grammars: undefined, reference: true },
    ];
    for (const [label, make] of referenceGrammars(texts)) {
      const per: LlamaGrammar[] = [];
      for (let i = 0; i < texts.length; i++) per.push(await model.llama.createGrammar({ grammar: make(i) }));
      runs.push({ label, grammars: per, reference: true });
    }
    for (const g of grammars) {
      if (g.grammar && (await acceptsAll(model, g.gbnf!, calls)))
        runs.push({ label: g.label, grammars: texts.map(() => g.grammar!), reference: false });
      else if (!g.error) g.error = "rejects the calls";
    }
    await teacherForced(model, undefined, prompt, calls.slice(0, 1)); // warm-up
    // interleaved rounds, so that load from other processes falls on every grammar alike; each round's cost is the
    // grammar's time per token minus the unconstrained time per token of the same round, and the median is reported
    const perRound = new Map<string, { ms: number[]; cpu: number[]; diverged: number }>();
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? runs : [runs[0], ...runs.slice(1).reverse()];
      const got = new Map<string, Timing>();
      for (const g of order) got.set(g.label, await teacherForced(model, g.grammars, prompt, calls));
      const none = got.get("none")!;
      for (const [label, t] of got) {
        const e = perRound.get(label) ?? { ms: [], cpu: [], diverged: 0 };
        e.ms.push(label === "none" ? t.ms / t.tokens : t.ms / t.tokens - none.ms / none.tokens);
        e.cpu.push(label === "none" ? t.cpuMs / t.tokens : t.cpuMs / t.tokens - none.cpuMs / none.tokens);
        e.diverged += t.diverged;
        perRound.set(label, e);
      }
    }
    const none = perRound.get("none")!;
    const lines = [
      `tiny Qwen3 (random weights), weather tools, ${texts.length} calls × ${rounds} rounds, teacher-forced (${calls.reduce((n, c) => n + c.length - 1, 0)} tokens a round), grammar applied to all 151,936 candidates each step, 1 thread. Unconstrained step: ${median(none.ms).toFixed(2)} ms/token wall, ${median(none.cpu).toFixed(2)} ms/token process CPU. Grammar cost: time per token minus the unconstrained time per token of the same round, median of the rounds.`,
      "",
      "| grammar | GBNF (bytes) | llama.cpp load (ms) | grammar cost ms/token (wall) | grammar cost ms/token (CPU) | ratio to (a) (CPU) |",
      "|---|---:|---:|---:|---:|---:|",
    ];
    const rows: LlamaSamplerResult["rows"] = [];
    const aCpu = perRound.get(grammars[0].label);
    const aCost = aCpu ? median(aCpu.cpu) : NaN;
    for (const run of runs.slice(1)) {
      if (!run.reference) continue;
      const e = perRound.get(run.label)!;
      lines.push(
        `| ${run.label} (reference) | | | ${median(e.ms).toFixed(2)} | ${median(e.cpu).toFixed(2)} | ${(median(e.cpu) / aCost).toFixed(2)} |`,
      );
    }
    for (const g of grammars) {
      const e = perRound.get(g.label);
      const size = g.gbnf ? Buffer.byteLength(g.gbnf) : NaN;
      if (!e) {
        lines.push(`| ${g.label} | ${Number.isFinite(size) ? size : "n/a"} | ${g.error ?? "n/a"} | n/a | n/a | |`);
        continue;
      }
      const cpu = median(e.cpu);
      rows.push({ label: g.label, overheadMs: cpu, gbnfBytes: size });
      lines.push(
        `| ${g.label} | ${size} | ${g.loadMs!.toFixed(1)} | ${median(e.ms).toFixed(2)} | ${cpu.toFixed(2)} | ${(cpu / aCost).toFixed(2)} |${e.diverged ? ` (${e.diverged} calls diverged)` : ""}`,
      );
    }
    if (opts.noSets) return { table: lines.join("\n"), rows };

    // GBNF size and whether llama.cpp loads it, for the MCP tool sets
    lines.push(
      "",
      "GBNF for the MCP tool sets (same envelope): size in KB and llama.cpp's load time (or why it does not load).",
      "",
      "| tool set | (a) toolgram | (b) json_schema_to_grammar.py | (c) node-llama-cpp |",
      "|---|---|---|---|",
    );
    const sets: [string, unknown[]][] = [["GitHub MCP, 117 tools", githubMcpTools()]];
    if (!opts.quick) sets.push(["composed MCP, 500 tools", composedMcpTools(500)]);
    for (const [name, tools] of sets) {
      const cells: string[] = [];
      for (const [label, make] of [
        ["a", () => compileTools(tools, policy).toGbnf()],
        ["b", () => pythonGbnf(toolDefs(tools))],
        ["c", () => nodeLlamaCppGbnf(model, toolDefs(tools))],
      ] as const) {
        const g = await load(model, label, make);
        const kb = g.gbnf ? `${(Buffer.byteLength(g.gbnf) / 1024).toFixed(1)} KB` : "n/a";
        cells.push(g.error ? `${kb}, fails: ${g.error}` : `${kb}, loads in ${g.loadMs!.toFixed(0)} ms`);
      }
      lines.push(`| ${name} | ${cells.join(" | ")} |`);
    }
    return { table: lines.join("\n"), rows };
  } finally {
    await model.dispose();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const value = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  // --gbnf=label=path (repeatable): another GBNF for the same calls, measured in the same rounds
  const extra = args
    .filter((a) => a.startsWith("--gbnf="))
    .map((a) => {
      const [label, path] = a.slice(7).split("=");
      return [label, readFileSync(path, "utf8")] as [string, string];
    });
  const rounds = value("rounds");
  runLlamaSamplerBench({
    quick: args.includes("--quick"),
    rounds: rounds ? Number(rounds) : undefined,
    extra,
    noSets: args.includes("--no-sets"),
  }).then((r) => console.log(r.table));
}
