/**
 * `npm run bench:big`: the tail of toolgram's masks on a workload nobody tuned for, with XGrammar (WASM) in the same
 * process, on the Qwen3 vocabulary. Opt-in (several minutes); `npm run bench` stays small.
 *
 * - JSONSchemaBench: every one of the 17 dev subsets, a seeded stratified sample (`--per-subset`, default 60 schemas
 *   per subset, all of a smaller one), read from `TOOLGRAM_JSONSCHEMABENCH_DIR` (the dataset's `<subset>.jsonl` files;
 *   see the dataset's README for its provenance). Each schema: compile, the first mask, masks along its first valid
 *   instances (`--instances`) and along seeded random walks under toolgram's own masks (`--walks` of up to
 *   `--walk-tokens` tokens). XGrammar replays the same token ids (stopping where it refuses one).
 * - Tool calls: the 20 OpenAI tools, the 117 GitHub MCP tools and the 500 composed MCP tools, forced calls
 *   (`tool_choice: "required"`), masks along sampled calls and random walks; maxima and memory.
 *
 * Reported per subset and overall: mask p50, p99, p99.9, max and the share over 1 ms, and the first mask, for both
 * engines. Writes bench/big/results.md and bench/big/results.json (`--out DIR` elsewhere). Wall-clock figures of one
 * run on a shared machine: read the tail with its counts (schemas, masks), and compare runs made on the same machine.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CompiledGrammar } from "../src/CompiledGrammar.js";
import { compileSchema, compileTools } from "../src/compile.js";
import { canonicalJson, type JsonValue } from "../src/json.js";
import { sampleGrammar } from "../src/testing/sampleGrammar.js";
import { toolFragments } from "../src/ToolFragmentCache.js";
import { qwen3 } from "../test/support/qwen3.js";
import { loadXGrammar, type XgCompiled, type XgCompiler, type XGrammar } from "./loadXGrammar.js";
import { composedMcpTools, githubMcpTools, type McpTool, prng, twentyOpenAiTools } from "./toolSets.js";
import { xgrammarToolCalls } from "./xgrammarToolCalls.js";

const args = process.argv.slice(2);
const opt = (name: string, dflt: number): number => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt);
const PER_SUBSET = opt("--per-subset", 60);
const INSTANCES = opt("--instances", 2);
const WALKS = opt("--walks", 2);
const WALK_TOKENS = opt("--walk-tokens", 48);
const MAX_INSTANCE_TOKENS = 160;
/** Longer schema texts are not given to XGrammar (as in the quick bench: its pathological compiles); toolgram has them. */
const MAX_SCHEMA_TEXT = 3000;
const SKIP_XG = args.includes("--no-xgrammar");
const SKIP_TOOLS = args.includes("--no-tools");
/** `--worst N`: print the N slowest masks (workload, schema, sequence, step, the text before it) to find the tail. */
const WORST = opt("--worst", 0);
/** `--only ID`: measure only the JSONSchemaBench schema of this id (one worst schema alone, for a profile). */
const ONLY = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;
const OUT = args.includes("--out") ? args[args.indexOf("--out") + 1] : join(import.meta.dirname, "big");
const SEED = 20261128;
/**
 * `--warm-work N`: the tool-call workloads are also measured warmed, each on a fresh compile whose matcher is given up
 * to N units of warm-up work (TokenMatcher.warm, in slices of WARM_SLICE, as generateWithMask gives it while the
 * prompt is evaluated) before its walks; 0 measures them cold only.
 */
const WARM_WORK = opt("--warm-work", 4_000_000);
const WARM_SLICE = 16_384;
/**
 * `--schema-warm-per-token N`: each JSONSchemaBench schema is also measured warmed, on a fresh compile whose matcher is
 * given N units of warm-up work (TokenMatcher.warm) per Qwen3 token of the schema's JSON text before the same token
 * sequences as its cold pass; 0 measures them cold only. What the budget stands for: a `response_format` request
 * whose prompt holds the schema, evaluated while the matcher warms (generateWithMask's `warmWhilePrompt`, or the
 * server's mask worker between requests). A warm-up unit took 1.4–3.6 µs on average in the tool sets' warm-ups (see
 * results.md); 32 units a token is about 0.05–0.1 ms of warm-up per prompt token, the order of a GPU's prefill of a
 * 7–8B model (a CPU's is ten times slower or more: the tiny test model took 1.5 ms a token here). The rest of the
 * prompt (system and user messages) is not counted: the budget is a lower bound of the idle time.
 */
const SCHEMA_WARM_PER_TOKEN = opt("--schema-warm-per-token", 32);
/**
 * `--ahead-per-token N`: a further pass of every JSONSchemaBench schema and tool set, warmed as its warmed pass is,
 * whose steps are each given N units of warm-ahead (TokenMatcher.warmAhead) after their token is accepted and before
 * the next mask is timed: what a mask worker computes while the model runs its forward pass for the token (serving
 * stacks overlap the two); 0 leaves the pass out. Why 2,048: measured on the 2-core machine of the runs in results.md
 * (the pass prints its rate), the warm-ahead did 828 units per ms of CPU time (369 per ms of wall time at a load
 * average of 6–8) over the tool sets' 3,244 steps, so 2,048 units are about 2.5 ms of a core: half the 5 ms forward
 * pass of a small model on a GPU (a 7–8B model's, or any model's on a CPU, is longer and leaves more).
 */
const AHEAD_PER_TOKEN = opt("--ahead-per-token", 2048);
/** Warm-ahead work and time given in the ahead passes, in all (units per ms: what a forward pass buys). */
const aheadSpent = { work: 0, ms: 0, cpuMs: 0, calls: 0 };

/** A tool as the bench's tool sets declare it (OpenAI's shape). */
type OpenAiTool = ReturnType<typeof twentyOpenAiTools>[number];

interface Row {
  id: string;
  subset: string;
  schema: JsonValue;
  tests: { data: JsonValue; valid: boolean }[];
}

/** Mask times (ms) of one engine over a group, and its first masks (compile excluded). */
interface Times {
  masks: number[];
  first: number[];
  /** Masks after the first that were not cached: they walked trie nodes or made configurations (counted work). */
  computed: number;
}
const newTimes = (): Times => ({ masks: [], first: [], computed: 0 });

interface Summary {
  schemas: number;
  masks: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
  over1ms: number;
  firstP50: number;
  firstMax: number;
  /** See Times.computed. */
  computed: number;
}

function pct(xs: number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

function summarize(t: Times, schemas: number): Summary {
  return {
    schemas,
    masks: t.masks.length,
    p50: pct(t.masks, 0.5),
    p99: pct(t.masks, 0.99),
    p999: pct(t.masks, 0.999),
    max: pct(t.masks, 1),
    over1ms: t.masks.length ? t.masks.filter((x) => x > 1).length / t.masks.length : Number.NaN,
    firstP50: pct(t.first, 0.5),
    firstMax: pct(t.first, 1),
    computed: t.computed,
  };
}

/** A seeded shuffle (Fisher–Yates). */
function shuffled<T>(xs: readonly T[], rnd: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

function readSubsets(dir: string): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith(".jsonl"))
    .sort()) {
    const rows = readFileSync(join(dir, f), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as Row);
    out.set(f.replace(/\.jsonl$/, ""), rows);
  }
  return out;
}

function allowedIds(bits: Uint32Array, eos: readonly number[]): number[] {
  const ids: number[] = [];
  for (let w = 0; w < bits.length; w++)
    for (let x = bits[w]; x !== 0; x &= x - 1) {
      const id = w * 32 + (31 - Math.clz32(x & -x));
      if (!eos.includes(id)) ids.push(id);
    }
  return ids;
}

/** One timed mask, kept for `--worst`. */
interface Slow {
  ms: number;
  nodes: number;
  where: string;
  step: number;
  before: number[];
}
const slow: Slow[] = [];
/** Trie nodes walked by each mask but the first of a grammar: the work, the same on a loaded machine (`--worst`). */
const walked: number[] = [];

interface Engine {
  vocab: ReturnType<typeof qwen3>["vocab"];
  encode: (text: string) => number[];
  bits: Uint32Array;
  xg?: XGrammar;
  compiler?: XgCompiler;
}

/**
 * toolgram along token sequences: the first mask, then a mask before each token (stopping where a token is refused);
 * random walks pick their tokens from toolgram's masks. Returns the sequences followed, for XGrammar to replay.
 */
function oursAlong(
  e: Engine,
  c: CompiledGrammar,
  compileMs: number,
  seqs: number[][],
  walks: number,
  t: Times,
  rnd: () => number,
  label = "",
  ahead = 0,
) {
  const followed: number[][] = [];
  const eos = e.vocab.eosTokenIds;
  /** The warm-ahead after an accepted token, before the next mask is timed (see AHEAD_PER_TOKEN). */
  const aheadOf = (m: ReturnType<CompiledGrammar["createMatcher"]>): void => {
    if (ahead <= 0) return;
    const table = tableOf(m);
    const w0 = workOf(table);
    const t0 = performance.now();
    const u0 = process.cpuUsage();
    m.warmAhead(ahead);
    const u = process.cpuUsage(u0);
    aheadSpent.ms += performance.now() - t0;
    aheadSpent.cpuMs += (u.user + u.system) / 1000;
    aheadSpent.work += workOf(table) - w0;
    aheadSpent.calls++;
  };
  let first = true;
  let where = "";
  // the first matcher's construction (the byte NFA) is part of the time to the first mask; later ones share it
  let matcherMs = 0;
  const matcher = (): ReturnType<CompiledGrammar["createMatcher"]> => {
    const t0 = performance.now();
    const m = c.createMatcher(e.vocab);
    if (first) matcherMs += performance.now() - t0;
    return m;
  };
  const mask = (m: ReturnType<CompiledGrammar["createMatcher"]>, done: number[]): void => {
    const table = (m as unknown as { table: { nodesWalked: number; automaton: { configCount: number } } }).table;
    const n0 = table.nodesWalked;
    const c0 = table.automaton.configCount;
    const t0 = performance.now();
    m.fillNextTokenBitmask(e.bits);
    const ms = performance.now() - t0;
    const nodes = table.nodesWalked - n0;
    if (!first) walked.push(nodes);
    if (!first && (nodes > 0 || table.automaton.configCount !== c0)) t.computed++;
    // the first mask of the grammar is counted with its compile: the time to the first mask
    if (first) t.first.push(compileMs + matcherMs + ms);
    else {
      t.masks.push(ms);
      if (WORST > 0 && (ms > 1 || nodes > 10_000))
        slow.push({ ms, nodes, where, step: done.length, before: [...done] });
    }
    first = false;
  };
  for (const [i, ids] of seqs.entries()) {
    const m = matcher();
    const done: number[] = [];
    where = `${label} instance ${i}`;
    for (const id of ids.slice(0, MAX_INSTANCE_TOKENS)) {
      mask(m, done);
      if (!m.acceptToken(id)) break;
      done.push(id);
      aheadOf(m);
    }
    followed.push(done);
  }
  for (let w = 0; w < walks; w++) {
    const m = matcher();
    const done: number[] = [];
    where = `${label} walk ${w}`;
    for (let k = 0; k < WALK_TOKENS && !m.isTerminated(); k++) {
      mask(m, done);
      const ids = allowedIds(e.bits, eos);
      if (ids.length === 0) break;
      const id = ids[Math.floor(rnd() * ids.length)];
      m.acceptToken(id);
      done.push(id);
      aheadOf(m);
    }
    followed.push(done);
  }
  return followed;
}

/** XGrammar along the same sequences: its first mask, then a mask before each token it accepts. */
async function theirsAlong(
  e: Engine,
  compiled: XgCompiled,
  compileMs: number,
  seqs: number[][],
  t: Times,
): Promise<void> {
  let first = true;
  for (const ids of seqs) {
    const m0 = performance.now();
    const m = await e.xg!.GrammarMatcher.createGrammarMatcher(compiled);
    const matcherMs = performance.now() - m0;
    try {
      for (const id of [...ids, -1]) {
        const t0 = performance.now();
        await m.getNextTokenBitmask();
        const ms = performance.now() - t0;
        if (first) t.first.push(compileMs + matcherMs + ms);
        else t.masks.push(ms);
        first = false;
        if (id < 0 || !m.acceptToken(id)) break;
      }
    } finally {
      m.dispose();
    }
  }
}

async function schemaBench(e: Engine, dir: string) {
  const subsets = readSubsets(dir);
  const rnd = prng(SEED);
  const perSubset = new Map<
    string,
    {
      ours: Times;
      theirs: Times;
      warmed: Times;
      ahead: Times;
      warmWork: number;
      schemas: number;
      refused: number;
      xgFailed: number;
      xgSkipped: number;
    }
  >();
  const all = { ours: newTimes(), theirs: newTimes(), warmed: newTimes(), ahead: newTimes(), warmWork: 0 };
  let n = 0;
  for (const [name, rows] of subsets) {
    const g = {
      ours: newTimes(),
      theirs: newTimes(),
      warmed: newTimes(),
      ahead: newTimes(),
      warmWork: 0,
      schemas: 0,
      refused: 0,
      xgFailed: 0,
      xgSkipped: 0,
    };
    perSubset.set(name, g);
    for (const row of shuffled(rows, rnd)) {
      if (g.schemas + g.refused >= PER_SUBSET) break;
      if (ONLY !== undefined && row.id !== ONLY) continue;
      const text = JSON.stringify(row.schema);
      let c: CompiledGrammar;
      const c0 = performance.now();
      try {
        c = compileSchema(row.schema);
      } catch {
        g.refused++;
        continue;
      }
      // (tokenizing the test instances is the bench's work, not the engine's)
      const compileMs = performance.now() - c0;
      const seqs = row.tests
        .filter((t) => t.valid)
        .slice(0, INSTANCES)
        .map((t) => e.encode(canonicalJson(t.data)));
      const ours = newTimes();
      let followed: number[][];
      try {
        followed = oursAlong(e, c, compileMs, seqs, WALKS, ours, rnd, `${name} ${row.id}`);
      } catch {
        // the matcher refused the grammar (a limit met building its automaton): a refusal, like the compile's
        g.refused++;
        continue;
      }
      const theirs = newTimes();
      if (e.compiler && text.length > MAX_SCHEMA_TEXT) g.xgSkipped++;
      else if (e.compiler) {
        try {
          const x0 = performance.now();
          const xc = await e.compiler.compileJSONSchema(text, false, -1, [", ", ": "], true);
          await theirsAlong(e, xc, performance.now() - x0, followed, theirs);
          xc.dispose();
        } catch {
          g.xgFailed++;
        }
      }
      const warmed = newTimes();
      if (SCHEMA_WARM_PER_TOKEN > 0) g.warmWork += warmedSchema(e, row.schema, e.encode(text).length, followed, warmed);
      const ahead = newTimes();
      if (AHEAD_PER_TOKEN > 0) warmedSchema(e, row.schema, e.encode(text).length, followed, ahead, AHEAD_PER_TOKEN);
      for (const [from, to] of [
        [ours, g.ours],
        [theirs, g.theirs],
        [warmed, g.warmed],
        [ahead, g.ahead],
      ] as const) {
        to.masks.push(...from.masks);
        to.first.push(...from.first);
        to.computed += from.computed;
      }
      g.schemas++;
      n++;
      if (n % 50 === 0) process.stderr.write(`${n} schemas\n`);
    }
    all.ours.masks.push(...g.ours.masks);
    all.ours.first.push(...g.ours.first);
    all.ours.computed += g.ours.computed;
    all.warmed.computed += g.warmed.computed;
    all.theirs.masks.push(...g.theirs.masks);
    all.theirs.first.push(...g.theirs.first);
    all.warmed.masks.push(...g.warmed.masks);
    all.warmed.first.push(...g.warmed.first);
    all.ahead.masks.push(...g.ahead.masks);
    all.ahead.first.push(...g.ahead.first);
    all.ahead.computed += g.ahead.computed;
    all.warmWork += g.warmWork;
  }
  return { perSubset, all, schemas: n };
}

/**
 * One schema compiled afresh, its matcher warmed within SCHEMA_WARM_PER_TOKEN units per token of its text, then the
 * sequences its cold pass followed (the same tokens: its masks are the same). The first mask is the compile plus the
 * first fill, which the warm-up computed (as while the prompt is evaluated). With `ahead`, each step is also given that
 * much warm-ahead after its token (see AHEAD_PER_TOKEN). Returns the warm-up work spent.
 */
function warmedSchema(e: Engine, schema: JsonValue, tokens: number, followed: number[][], t: Times, ahead = 0): number {
  const c0 = performance.now();
  const c = compileSchema(schema);
  const compileMs = performance.now() - c0;
  const m = c.createMatcher(e.vocab);
  const table = tableOf(m);
  const w0 = workOf(table);
  const budget = SCHEMA_WARM_PER_TOKEN * tokens;
  try {
    let more = true;
    while (more && workOf(table) - w0 < budget) more = m.warm(Math.min(WARM_SLICE, budget - (workOf(table) - w0)));
  } catch {
    // a warm-up that meets what the steps would meet leaves it to them (measured below as they meet it)
  }
  const work = workOf(table) - w0;
  try {
    oursAlong(e, c, compileMs, followed, 0, t, () => 0, "", ahead);
  } catch {
    // the cold pass met the same
  }
  return work;
}

/** Forced calls sampled from the compiled grammar itself (any tool set's schemas), as token ids. */
function toolSeqs(e: Engine, c: CompiledGrammar, calls: number, rnd: () => number): number[][] {
  const seqs: number[][] = [];
  for (let i = 0; i < calls; i++) {
    const text = sampleGrammar(c.grammar, rnd, { extraRepeats: 1, maxLength: 600 });
    if (text !== undefined) seqs.push(e.encode(text));
  }
  return seqs;
}

const asOpenAi = (ts: McpTool[]): OpenAiTool[] =>
  ts.map((t) => ({ type: "function", function: { name: t.name, parameters: t.inputSchema } }) as unknown as OpenAiTool);

/** What warming a tool set's matcher before its walks took (see WARM_WORK). */
interface Warmed {
  ours: Summary;
  /** Work units spent, slices, and whether the warm-up had more to do when WARM_WORK ran out. */
  work: number;
  slices: number;
  more: boolean;
  /** Why the warm-up ended (MaskWarmer.stopReason), or "work" when WARM_WORK ran out first. */
  stoppedBy: string;
  /** Wall time of the warm-up and of its longest slice (ms), and the masks it computed. */
  ms: number;
  maxSliceMs: number;
  computed: number;
  memoryMB: number;
  heapMB: number;
  /** Tokens of the tool declarations (each tool's JSON on a line, as a Qwen3 prompt lists them): the prefill it overlaps. */
  declarationTokens: number;
}

type Table = { memoryBytes(): number; nodesWalked: number; automaton: { memoryBytes(): number } };
const tableOf = (m: ReturnType<CompiledGrammar["createMatcher"]>): Table => (m as unknown as { table: Table }).table;
const workOf = (t: Table): number => {
  const a = t.automaton as unknown as { closureWalks: number; configCount: number };
  return t.nodesWalked + 16 * (a.closureWalks + a.configCount);
};

/** The tool set compiled afresh, its matcher warmed within WARM_WORK, then the same walks as cold. */
function warmedAlong(
  e: Engine,
  tools: OpenAiTool[],
  policy: Parameters<typeof compileTools>[1],
  label: string,
  ahead = 0,
): Warmed {
  toolFragments.clear();
  (globalThis as { gc?: () => void }).gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const c = compileTools(tools, policy);
  const compileMs = performance.now() - t0;
  const m = c.createMatcher(e.vocab);
  const table = tableOf(m);
  const w0 = workOf(table);
  const s0 = performance.now();
  let slices = 0;
  let more = true;
  let maxSliceMs = 0;
  while (more && workOf(table) - w0 < WARM_WORK) {
    const a = performance.now();
    more = m.warm(WARM_SLICE);
    maxSliceMs = Math.max(maxSliceMs, performance.now() - a);
    slices++;
  }
  const ms = performance.now() - s0;
  const work = workOf(table) - w0;
  const warmer = (table as unknown as { warmer?: { computed: number; stopReason?: string } }).warmer;
  const computed = warmer?.computed ?? 0;
  const stoppedBy = more ? "work" : (warmer?.stopReason ?? "done");
  const ours = newTimes();
  // the same seeded calls and walks as the cold pass (a generator of the same seed)
  const rnd = prng(SEED + 1 + tools.length);
  oursAlong(e, c, compileMs, toolSeqs(e, c, 12, rnd), 6, ours, rnd, `${label} warmed`, ahead);
  const memoryMB = (table.memoryBytes() + table.automaton.memoryBytes()) / 2 ** 20;
  const heapMB = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;
  const declarationTokens = e.encode(tools.map((t) => JSON.stringify(t)).join("\n")).length;
  return {
    ours: summarize(ours, 1),
    work,
    slices,
    more,
    stoppedBy,
    ms,
    maxSliceMs,
    computed,
    memoryMB,
    heapMB,
    declarationTokens,
  };
}

async function toolBench(e: Engine) {
  const sets: [string, OpenAiTool[]][] = [
    ["20 OpenAI tools", twentyOpenAiTools()],
    ["117 GitHub MCP tools", asOpenAi(githubMcpTools())],
    ["500 composed MCP tools", asOpenAi(composedMcpTools(500))],
  ];
  const out: {
    name: string;
    ours: Summary;
    theirs: Summary;
    compileMs: number;
    memoryMB: number;
    heapMB: number;
    xgFailure?: string;
    warmed?: Warmed;
    ahead?: Warmed;
  }[] = [];
  const policy = { format: "qwen3", toolChoice: "required", parallel: false } as const;
  for (const [name, tools] of sets) {
    toolFragments.clear();
    (globalThis as { gc?: () => void }).gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const c = compileTools(tools, policy);
    const compileMs = performance.now() - t0;
    const ours = newTimes();
    // a generator per set (the warmed pass repeats the same calls and walks)
    const setRnd = prng(SEED + 1 + tools.length);
    const followed = oursAlong(e, c, compileMs, toolSeqs(e, c, 12, setRnd), 6, ours, setRnd, name);
    const m = c.createMatcher(e.vocab) as unknown as {
      table: { memoryBytes(): number; automaton: { memoryBytes(): number } };
    };
    const memoryMB = (m.table.memoryBytes() + m.table.automaton.memoryBytes()) / 2 ** 20;
    const heapMB = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;
    const theirs = newTimes();
    let xgFailure: string | undefined;
    if (e.compiler && e.xg) {
      try {
        const x0 = performance.now();
        const ebnf = await xgrammarToolCalls(e.xg, tools, { toolChoice: "required", parallel: false });
        const xc = await e.compiler.compileGrammar(ebnf);
        await theirsAlong(e, xc, performance.now() - x0, followed, theirs);
        xc.dispose();
      } catch (err) {
        xgFailure = String(err).slice(0, 80);
      }
    }
    const warmed = WARM_WORK > 0 ? warmedAlong(e, tools, policy, name) : undefined;
    const ahead = AHEAD_PER_TOKEN > 0 ? warmedAlong(e, tools, policy, name, AHEAD_PER_TOKEN) : undefined;
    out.push({
      name,
      ours: summarize(ours, 1),
      theirs: summarize(theirs, 1),
      compileMs,
      memoryMB,
      heapMB,
      ...(xgFailure ? { xgFailure } : {}),
      ...(warmed ? { warmed } : {}),
      ...(ahead ? { ahead } : {}),
    });
    process.stderr.write(`${name} done\n`);
  }
  return out;
}

const f = (x: number, d = 3): string => (Number.isNaN(x) ? "–" : x.toFixed(d));
const ratio = (a: number, b: number): string => (Number.isFinite(a / b) ? `${(a / b).toFixed(2)}×` : "–");

function line(name: string, o: Summary, t: Summary): string {
  return `| ${name} | ${o.schemas} | ${o.masks} | ${f(o.p50)} / ${f(t.p50)} | ${f(o.p99)} / ${f(t.p99)} (${ratio(o.p99, t.p99)}) | ${f(o.p999, 2)} / ${f(t.p999, 2)} | ${f(o.max, 1)} / ${f(t.max, 1)} | ${f(100 * o.over1ms, 2)} % / ${f(100 * t.over1ms, 2)} % | ${f(o.firstP50, 2)} / ${f(t.firstP50, 2)} (${ratio(o.firstP50, t.firstP50)}) | ${f(o.firstMax, 1)} / ${f(t.firstMax, 1)} |`;
}

/** A subset's row: one of toolgram's passes (cold or warmed) beside XGrammar's. */
function subsetLine(name: string, g: { theirs: Times; schemas: number }, ours: Times): string {
  return line(name, summarize(ours, g.schemas), summarize(g.theirs, g.schemas));
}

async function main(): Promise<void> {
  const dir = process.env.TOOLGRAM_JSONSCHEMABENCH_DIR;
  if (!dir) {
    console.error(
      "set TOOLGRAM_JSONSCHEMABENCH_DIR to a folder holding JSONSchemaBench's <subset>.jsonl files (see bench/big/README.md)",
    );
    process.exit(2);
  }
  const { vocab, encode, tokenizerJson } = qwen3();
  const e: Engine = { vocab, encode, bits: new Uint32Array(Math.ceil(vocab.size / 32)) };
  if (!SKIP_XG) {
    const tj = tokenizerJson as {
      model: { vocab: Record<string, number> };
      added_tokens: { id: number; content: string }[];
    };
    e.xg = loadXGrammar();
    const pieces: string[] = new Array(vocab.size).fill("");
    for (const [p, id] of Object.entries(tj.model.vocab)) pieces[id] = p;
    for (const a of tj.added_tokens) pieces[a.id] = a.content;
    const info = await e.xg.TokenizerInfo.createTokenizerInfo(pieces, "byte_level", false, vocab.size, [
      ...vocab.eosTokenIds,
    ]);
    e.compiler = await e.xg.GrammarCompiler.createGrammarCompiler(info, false);
  }
  const started = new Date().toISOString();
  const schemas = await schemaBench(e, dir);
  const tools = SKIP_TOOLS ? [] : await toolBench(e);
  const head =
    "| workload | schemas | masks | p50 ms | p99 ms | p99.9 ms | max ms | over 1 ms | first mask p50 ms (compile included) | first mask max ms |\n|---|---|---|---|---|---|---|---|---|---|";
  const md: string[] = [
    "# The big benchmark (`npm run bench:big`)",
    "",
    `Run of ${started}: toolgram / XGrammar (WASM) in one process, Qwen3 vocabulary. JSONSchemaBench: ${schemas.schemas} schemas of the 17 dev subsets (up to ${PER_SUBSET} per subset, seeded), masks along up to ${INSTANCES} valid instances and ${WALKS} seeded random walks of up to ${WALK_TOKENS} tokens each; XGrammar replays the same tokens. Cells are toolgram / XGrammar; ratios toolgram ÷ XGrammar.`,
    "",
    head,
    line(
      "JSONSchemaBench, all",
      summarize(schemas.all.ours, schemas.schemas),
      summarize(schemas.all.theirs, schemas.schemas),
    ),
  ];
  for (const [name, g] of schemas.perSubset)
    md.push(
      subsetLine(`${name} (refused ${g.refused}, XGrammar failed ${g.xgFailed}, not given ${g.xgSkipped})`, g, g.ours),
    );
  if (SCHEMA_WARM_PER_TOKEN > 0 && schemas.schemas > 0) {
    md.push(
      "",
      `JSONSchemaBench warmed: each schema compiled afresh after its cold pass (the process-wide frame masks are shared with it), its matcher given ${SCHEMA_WARM_PER_TOKEN} units of warm-up work (TokenMatcher.warm) per Qwen3 token of the schema's JSON text (${schemas.all.warmWork.toLocaleString("en")} units in all), then the same token sequences as its cold pass; XGrammar's cells are its cold pass (it compiles ahead of time). The first mask is the compile plus the first fill (computed by the warm-up).`,
      "",
      head,
      line(
        "JSONSchemaBench, all, warmed",
        summarize(schemas.all.warmed, schemas.schemas),
        summarize(schemas.all.theirs, schemas.schemas),
      ),
    );
    for (const [name, g] of schemas.perSubset) md.push(subsetLine(`${name}, warmed`, g, g.warmed));
    md.push(
      "",
      `Masks computed (not cached: they walked trie nodes or made configurations; counted, the same on any machine), first masks left out: cold ${schemas.all.ours.computed} of ${schemas.all.ours.masks.length}, warmed ${schemas.all.warmed.computed} of ${schemas.all.warmed.masks.length}${AHEAD_PER_TOKEN > 0 ? `, warmed and ahead ${schemas.all.ahead.computed} of ${schemas.all.ahead.masks.length}` : ""}.`,
    );
  }
  if (AHEAD_PER_TOKEN > 0 && schemas.schemas > 0) {
    md.push(
      "",
      `JSONSchemaBench warmed and ahead: as warmed, and each step given ${AHEAD_PER_TOKEN.toLocaleString("en")} units of warm-ahead (TokenMatcher.warmAhead) after its token is accepted, before the next mask is timed (the model's forward pass). Masks computed along the sequences: ${schemas.all.ahead.computed} of ${schemas.all.ahead.masks.length}.`,
      "",
      head,
      line(
        "JSONSchemaBench, all, warmed and ahead",
        summarize(schemas.all.ahead, schemas.schemas),
        summarize(schemas.all.theirs, schemas.schemas),
      ),
    );
    for (const [name, g] of schemas.perSubset) md.push(subsetLine(`${name}, ahead`, g, g.ahead));
  }
  if (tools.length) {
    md.push("", "Tool calls (forced, one call): masks along 12 sampled calls and 6 random walks.", "", head);
    for (const t of tools) md.push(line(t.name, t.ours, t.theirs));
    md.push(
      "",
      "| tool set | compile ms | automaton + masks MB | heap growth MB | XGrammar |",
      "|---|---|---|---|---|",
    );
    for (const t of tools)
      md.push(
        `| ${t.name} | ${f(t.compileMs, 0)} | ${f(t.memoryMB, 1)} | ${f(t.heapMB, 1)} | ${t.xgFailure ?? "ok"} |`,
      );
    if (tools.some((t) => t.warmed))
      md.push(
        "",
        `Warmed: each set compiled afresh after its cold pass (the process-wide frame masks are shared with it), its matcher given up to ${WARM_WORK.toLocaleString("en")} units of warm-up work (TokenMatcher.warm, slices of ${WARM_SLICE.toLocaleString("en")}), then the same calls and walks. The first mask is the compile plus the first fill (computed by the warm-up, as while a prompt is evaluated).`,
        "",
        head,
        ...tools.flatMap((t) => (t.warmed ? [line(`${t.name}, warmed`, t.warmed.ours, t.theirs)] : [])),
        "",
        "| tool set | warm-up work | slices | stopped by | warm-up ms | longest slice ms | masks computed | automaton + masks MB | heap growth MB | declaration tokens | masks computed along the walks, cold → warmed |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        ...tools.flatMap((t) => {
          const w = t.warmed;
          return w
            ? [
                `| ${t.name} | ${w.work.toLocaleString("en")} | ${w.slices} | ${w.stoppedBy} | ${f(w.ms, 0)} | ${f(w.maxSliceMs, 1)} | ${w.computed} | ${f(w.memoryMB, 1)} | ${f(w.heapMB, 1)} | ${w.declarationTokens} | ${t.ours.computed} → ${w.ours.computed} of ${w.ours.masks} |`,
              ]
            : [];
        }),
      );
    if (tools.some((t) => t.ahead))
      md.push(
        "",
        `Warmed and ahead: as warmed, and each step given ${AHEAD_PER_TOKEN.toLocaleString("en")} units of warm-ahead (TokenMatcher.warmAhead) after its token is accepted, before the next mask is timed.`,
        "",
        head,
        ...tools.flatMap((t) => (t.ahead ? [line(`${t.name}, warmed and ahead`, t.ahead.ours, t.theirs)] : [])),
        "",
        "| tool set | masks computed along the walks: cold → warmed → warmed and ahead | automaton + masks MB (ahead) |",
        "|---|---|---|",
        ...tools.flatMap((t) =>
          t.ahead && t.warmed
            ? [
                `| ${t.name} | ${t.ours.computed} → ${t.warmed.ours.computed} → ${t.ahead.ours.computed} of ${t.ahead.ours.masks} | ${f(t.ahead.memoryMB, 1)} |`,
              ]
            : [],
        ),
      );
  }
  if (aheadSpent.calls > 0)
    md.push(
      "",
      `Warm-ahead given: ${aheadSpent.calls.toLocaleString("en")} calls, ${aheadSpent.work.toLocaleString("en")} units in ${f(aheadSpent.ms, 0)} ms of wall time (${f(aheadSpent.work / aheadSpent.ms, 0)} units per ms, ${f((1000 * aheadSpent.ms) / aheadSpent.calls, 1)} µs a call) and ${f(aheadSpent.cpuMs, 0)} ms of CPU time (${f(aheadSpent.work / aheadSpent.cpuMs, 0)} units per CPU ms: a worker's rate on a core of its own).`,
    );
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, "results.md"), `${md.join("\n")}\n`);
  const perSubset = Object.fromEntries(
    [...schemas.perSubset].map(([k, g]) => [
      k,
      {
        ours: summarize(g.ours, g.schemas),
        theirs: summarize(g.theirs, g.schemas),
        warmed: summarize(g.warmed, g.schemas),
        ahead: summarize(g.ahead, g.schemas),
        warmWork: g.warmWork,
        refused: g.refused,
      },
    ]),
  );
  writeFileSync(
    join(OUT, "results.json"),
    `${JSON.stringify(
      {
        started,
        options: { PER_SUBSET, INSTANCES, WALKS, WALK_TOKENS, SCHEMA_WARM_PER_TOKEN, AHEAD_PER_TOKEN },
        aheadSpent,
        all: {
          ours: summarize(schemas.all.ours, schemas.schemas),
          theirs: summarize(schemas.all.theirs, schemas.schemas),
          warmed: summarize(schemas.all.warmed, schemas.schemas),
          ahead: summarize(schemas.all.ahead, schemas.schemas),
          warmWork: schemas.all.warmWork,
        },
        perSubset,
        tools,
      },
      null,
      1,
    )}\n`,
  );
  console.log(md.join("\n"));
  if (WORST > 0) printWorst(e.vocab);
}

/** The `--worst N` list: slowest masks first, each with the text decoded before it (the position it was at). */
function printWorst(vocab: Engine["vocab"]): void {
  const td = new TextDecoder();
  const text = (ids: number[]): string => {
    const parts = ids.map((id) => vocab.tokenBytes(id));
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    return td.decode(all);
  };
  const w = (p: number): string => pct(walked, p).toLocaleString("en");
  const big = walked.filter((n) => n > 10_000).length;
  console.log(
    `\nTrie nodes walked per mask (toolgram, ${walked.length} masks, first masks left out): p50 ${w(0.5)}, p99 ${w(0.99)}, p99.9 ${w(0.999)}, max ${w(1)}; over 10,000 nodes: ${big} masks; in all ${walked.reduce((a, b) => a + b, 0).toLocaleString("en")}`,
  );
  console.log(`\nThe ${WORST} slowest masks (toolgram):`);
  const show = (s: Slow): void =>
    console.log(
      `${s.ms.toFixed(1)} ms  ${s.nodes} nodes  ${s.where} step ${s.step}  …${JSON.stringify(text(s.before).slice(-70))}`,
    );
  for (const s of slow.sort((a, b) => b.ms - a.ms).slice(0, WORST)) show(s);
  console.log(`\nThe ${WORST} masks that walked the most trie nodes (toolgram):`);
  for (const s of slow.sort((a, b) => b.nodes - a.nodes).slice(0, WORST)) show(s);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
