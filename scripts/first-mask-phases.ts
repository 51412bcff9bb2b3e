/**
 * `node --expose-gc --import tsx scripts/first-mask-phases.ts [--per-subset N] [--walk-tokens N]`: where the time to
 * the first mask of a JSON Schema goes, summed over a JSONSchemaBench sample (`TOOLGRAM_JSONSCHEMABENCH_DIR`, the big
 * bench's dataset; N schemas per subset, default 20, seeded). Each schema is compiled phase by phase, as
 * `compileSchema` does (copy and normalize, lower, the optimize passes and the grammar's check, the hash), then the
 * matcher is made (the byte NFA) and the first mask filled (its own compute, the shared frames' warm, the prefetch),
 * then one seeded random walk follows it (untimed, as the bench's walks fill the process's shared caches). Printed per
 * phase: the sum and the share of the time, the median and p90 per schema, the same over the first 20 schemas of the
 * process alone (V8's warm-up), the garbage collector's time inside the timed spans, and counted work (compile steps,
 * NFA states, trie nodes walked by the first mask and its prefetch, configurations made). Wall-clock figures of a
 * shared machine: compare runs made alternately.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import { prng } from "../bench/toolSets.js";
import { createMatcher } from "../src/automaton/createMatcher.js";
import { MaskTable } from "../src/automaton/MaskTable.js";
import { Deadline } from "../src/Deadline.js";
import { NOTHING } from "../src/grammar/build.js";
import type { Grammar } from "../src/grammar/Grammar.js";
import { optimize } from "../src/grammar/passes/optimize.js";
import { validateGrammar } from "../src/grammar/validateGrammar.js";
import { createLowerContext, lowerSchema } from "../src/lower/lowerSchema.js";
import { resolveSchemaOptions } from "../src/options.js";
import { normalizeSchema } from "../src/schema/normalizeSchema.js";
import { cloneJson, jsonDepthLimit } from "../src/tools/cloneJson.js";
import { schemaHash } from "../src/tools/schemaHash.js";
import { qwen3 } from "../test/support/qwen3.js";

const args = process.argv.slice(2);
const opt = (name: string, dflt: number): number => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt);
const PER_SUBSET = opt("--per-subset", 20);
const WALK_TOKENS = opt("--walk-tokens", 48);
const EARLY = 20;

const PHASES = [
  "normalize",
  "lower",
  "optimize",
  "hash",
  "nfa",
  "fill: own mask",
  "fill: shared frames",
  "fill: prefetch",
] as const;
type Phase = (typeof PHASES)[number];

/** Time (ms) and garbage-collector time per phase of one schema. */
type Sample = Record<Phase, number>;

// the collector's pauses, delivered after the fact: attributed to the timed spans they started in, at the end
const gcPauses: [number, number][] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcPauses.push([e.startTime, e.duration]);
}).observe({ entryTypes: ["gc"] });
/** Timed spans: start, end, the sample whose GC cell they add to, the phase. */
const spans: [number, number, Sample, Phase][] = [];

/** Runs `f`, adding its time to `s[phase]`; the collector's time inside it goes to `gc[phase]` at the end. */
function timed<T>(s: Sample, gc: Sample, phase: Phase, f: () => T): T {
  const t0 = performance.now();
  try {
    return f();
  } finally {
    const t1 = performance.now();
    s[phase] += t1 - t0;
    spans.push([t0, t1, gc, phase]);
  }
}

/** Adds each collector pause to the innermost timed span it started in. */
function attributeGc(): void {
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  for (const [at, ms] of gcPauses) {
    let inner: (typeof spans)[number] | undefined;
    for (const sp of spans) {
      if (sp[0] > at) break;
      if (at <= sp[1]) inner = sp;
    }
    if (inner) inner[2][inner[3]] += ms;
  }
}

const zero = (): Sample => Object.fromEntries(PHASES.map((p) => [p, 0])) as Sample;

// the first fill's parts: MaskTable's own methods, timed from outside while a first mask is filled
type Hooked = Record<string, (...a: unknown[]) => unknown>;
const proto = MaskTable.prototype as unknown as Hooked;
let hook: { s: Sample; gc: Sample } | undefined;
for (const [method, phase] of [
  ["warmSharedFrames", "fill: shared frames"],
  ["prefetch", "fill: prefetch"],
] as const) {
  const orig = proto[method];
  proto[method] = function (this: unknown, ...a: unknown[]) {
    const h = hook;
    if (h === undefined) return orig.apply(this, a);
    return timed(h.s, h.gc, phase, () => orig.apply(this, a));
  };
}

function readSample(dir: string): { id: string; schema: unknown }[] {
  const rnd = prng(20261129);
  const out: { id: string; schema: unknown }[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith(".jsonl"))
    .sort()) {
    const rows = readFileSync(join(dir, f), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as { id: string; schema: unknown });
    for (let i = rows.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [rows[i], rows[j]] = [rows[j], rows[i]];
    }
    out.push(...rows.slice(0, PER_SUBSET));
  }
  return out;
}

interface Work {
  steps: number;
  nfaStates: number;
  firstNodes: number;
  configs: number;
  prefetched: number;
}

function main(): void {
  const dir = process.env.TOOLGRAM_JSONSCHEMABENCH_DIR;
  if (!dir) throw new Error("set TOOLGRAM_JSONSCHEMABENCH_DIR (see bench/big/README.md)");
  const { vocab } = qwen3();
  void vocab.trie;
  const bits = new Uint32Array(Math.ceil(vocab.size / 32));
  const rnd = prng(20261128);
  const samples: Sample[] = [];
  const gcs: Sample[] = [];
  const totals: number[] = [];
  const work: Work = { steps: 0, nfaStates: 0, firstNodes: 0, configs: 0, prefetched: 0 };
  let refused = 0;
  for (const row of readSample(dir)) {
    const s = zero();
    const gc = zero();
    let table: MaskTable;
    try {
      const opts = resolveSchemaOptions({}, { additionalProperties: "spec" });
      const deadline = Deadline.fromLimits(opts.limits);
      const ir = timed(s, gc, "normalize", () => {
        const copy = cloneJson(row.schema, "", jsonDepthLimit(opts.limits.maxNesting), deadline);
        return { copy, ir: normalizeSchema(copy, opts, [], "", deadline) };
      });
      const ctx = createLowerContext(opts, "value", [], deadline);
      const expr = timed(s, gc, "lower", () => {
        ctx.rules.set("root", NOTHING);
        return lowerSchema(ir.ir, ctx);
      });
      const g = timed(s, gc, "optimize", () => {
        const rules = new Map([["root", expr]]);
        for (const [n, e] of ctx.rules) if (n !== "root") rules.set(n, e);
        const o = optimize({ rules, root: "root" }, deadline);
        const sorted: Grammar = {
          rules: new Map([...o.rules].sort(([a], [b]) => Number(b === o.root) - Number(a === o.root))),
          root: o.root,
        };
        validateGrammar(sorted);
        return sorted;
      });
      timed(s, gc, "hash", () => schemaHash(ir.copy));
      work.steps += deadline.stepsTaken;
      const m = timed(s, gc, "nfa", () =>
        createMatcher(
          g,
          vocab,
          { specialTokens: "token-or-text", maxStates: opts.limits.maxAutomatonStates },
          opts.limits,
        ),
      );
      table = (m as unknown as { table: MaskTable }).table;
      const n0 = table.nodesWalked;
      hook = { s, gc };
      const t0 = performance.now();
      m.fillNextTokenBitmask(bits);
      const t1 = performance.now();
      hook = undefined;
      s["fill: own mask"] = t1 - t0 - s["fill: shared frames"] - s["fill: prefetch"];
      // the whole fill's span: a pause inside the prefetch's or the frames' own span goes to theirs
      spans.push([t0, t1, gc, "fill: own mask"]);
      work.nfaStates += table.automaton.nfa.stateCount;
      work.firstNodes += table.nodesWalked - n0;
      work.configs += table.automaton.configCount;
      work.prefetched += table.prefetchedMasks;
      // a walk after it, untimed, as the bench's walks fill the process's shared caches
      for (let k = 0; k < WALK_TOKENS && !m.isTerminated(); k++) {
        m.fillNextTokenBitmask(bits);
        const ids: number[] = [];
        for (let w = 0; w < bits.length; w++)
          for (let x = bits[w]; x !== 0; x &= x - 1) ids.push(w * 32 + (31 - Math.clz32(x & -x)));
        const allowed = ids.filter((id) => !vocab.eosTokenIds.includes(id));
        if (allowed.length === 0) break;
        m.acceptToken(allowed[Math.floor(rnd() * allowed.length)]);
      }
    } catch {
      hook = undefined;
      refused++;
      continue;
    }
    samples.push(s);
    gcs.push(gc);
    totals.push(PHASES.reduce((a, p) => a + s[p], 0));
  }
  // let the observer deliver the last pauses
  setTimeout(() => {
    attributeGc();
    report(samples, gcs, totals, work, refused);
  }, 100);
}

const pct = (xs: number[], q: number): number => {
  if (xs.length === 0) return Number.NaN;
  const a = [...xs].sort((x, y) => x - y);
  return a[Math.min(a.length - 1, Math.floor(q * a.length))];
};

function report(samples: Sample[], gcs: Sample[], totals: number[], work: Work, refused: number): void {
  const n = samples.length;
  const sum = totals.reduce((a, b) => a + b, 0);
  const counted = samples.map((s) => PHASES.reduce((a, p) => a + (p === "nfa" ? 0 : s[p]), 0));
  console.log(`without the NFA (as bench:big counts it before its fix): p50 ${pct(counted, 0.5).toFixed(2)} ms`);
  console.log(
    `${n} schemas measured (${refused} refused); time to first mask: sum ${sum.toFixed(0)} ms, p50 ${pct(totals, 0.5).toFixed(2)} ms, p90 ${pct(totals, 0.9).toFixed(2)} ms; first ${EARLY} schemas p50 ${pct(totals.slice(0, EARLY), 0.5).toFixed(2)} ms, the rest p50 ${pct(totals.slice(EARLY), 0.5).toFixed(2)} ms`,
  );
  console.log("| phase | sum ms | share | p50 ms | p90 ms | first 20 p50 | rest p50 | GC ms (sum) |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const p of PHASES) {
    const xs = samples.map((s) => s[p]);
    const t = xs.reduce((a, b) => a + b, 0);
    const g = gcs.reduce((a, s) => a + s[p], 0);
    console.log(
      `| ${p} | ${t.toFixed(0)} | ${((100 * t) / sum).toFixed(1)} % | ${pct(xs, 0.5).toFixed(3)} | ${pct(xs, 0.9).toFixed(3)} | ${pct(xs.slice(0, EARLY), 0.5).toFixed(3)} | ${pct(xs.slice(EARLY), 0.5).toFixed(3)} | ${g.toFixed(0)} |`,
    );
  }
  console.log(
    `work: compile steps ${work.steps}, NFA states ${work.nfaStates}, trie nodes walked by first masks ${work.firstNodes}, configurations made ${work.configs}, positions prefetched ${work.prefetched}`,
  );
}

main();
