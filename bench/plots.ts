/**
 * SVG charts of a benchmark run, rendered in Node by Vega-Lite (compiled to Vega, `view.toSVG()`, no browser):
 * mask-time distributions per engine and workload, time to first mask, tokens/s per decoding path, and time to first
 * mask against the number of tools. `bench/all.ts` writes them into bench/plots/ on a full run.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";

export interface EngineSamples {
  maskUs: number[];
  firstMaskMs: number[];
  failures: string[];
}
export interface PlotData {
  /** Per workload group (as in bench/run.ts): toolgram's and XGrammar's samples. */
  groups: Record<string, { toolgram: EngineSamples; xgrammar: EngineSamples }>;
  scaling: { tools: number; toolgramMs: number; xgrammarMs: number; toolgramFailure?: string }[];
  /** Decoding paths of the tiny-model generation benchmark. */
  decoding?: { label: string; tokensPerSecond: number }[];
  /** llama.cpp's grammar sampler, cost per token by grammar (process CPU ms over an unconstrained step). */
  sampler?: { label: string; overheadMs: number; gbnfBytes: number }[];
}

const ENGINES = { toolgram: "toolgram", xgrammar: "XGrammar" } as const;
const COLORS = { domain: ["toolgram", "XGrammar"], range: ["#1f77b4", "#ff7f0e"] };
const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * q))];

/** Renders a Vega-Lite spec to SVG in Node (no browser). */
export async function toSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Empirical distribution of mask times: 200 quantiles per engine and workload, log scale (the tail is the point). */
function maskDistribution(data: PlotData): TopLevelSpec {
  const rows: { workload: string; engine: string; quantile: number; us: number }[] = [];
  for (const [workload, g] of Object.entries(data.groups)) {
    for (const [key, name] of Object.entries(ENGINES)) {
      const xs = [...g[key as keyof typeof ENGINES].maskUs].filter((x) => x > 0).sort((a, b) => a - b);
      if (xs.length === 0) continue;
      for (let i = 0; i <= 200; i++)
        rows.push({ workload, engine: name, quantile: i / 200, us: quantile(xs, i / 200) });
    }
  }
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: "Time per token mask (distribution)",
      subtitle: "share of steps at or below a time; further left is faster, the right end is the tail",
    },
    data: { values: rows },
    facet: { field: "workload", type: "nominal", title: null },
    columns: 2,
    spec: {
      width: 300,
      height: 180,
      mark: { type: "line", interpolate: "step-after" },
      encoding: {
        x: { field: "us", type: "quantitative", scale: { type: "log" }, title: "µs per mask" },
        y: { field: "quantile", type: "quantitative", title: "share of steps", axis: { format: "%" } },
        color: { field: "engine", type: "nominal", scale: COLORS, title: null },
      },
    },
    resolve: { scale: { x: "independent" } },
  };
}

/** Time to first mask (compile + matcher + first mask), median per workload, log scale. */
function firstMask(data: PlotData): TopLevelSpec {
  const rows: { workload: string; engine: string; ms: number }[] = [];
  for (const [workload, g] of Object.entries(data.groups)) {
    for (const [key, name] of Object.entries(ENGINES)) {
      const xs = [...g[key as keyof typeof ENGINES].firstMaskMs].sort((a, b) => a - b);
      if (xs.length) rows.push({ workload, engine: name, ms: quantile(xs, 0.5) });
    }
  }
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: "Time to first mask (median per grammar)",
      subtitle: "compile + matcher + first mask; shorter is faster",
    },
    data: { values: rows },
    width: 420,
    height: { step: 14 },
    mark: "bar",
    encoding: {
      y: { field: "workload", type: "nominal", title: null },
      yOffset: { field: "engine" },
      x: { field: "ms", type: "quantitative", scale: { type: "log" }, title: "ms" },
      color: { field: "engine", type: "nominal", scale: COLORS, title: null },
    },
  };
}

/** Time to first mask against the number of tools. */
function scaling(data: PlotData): TopLevelSpec {
  const rows = data.scaling.flatMap((r) => [
    ...(Number.isFinite(r.toolgramMs) ? [{ tools: r.tools, engine: "toolgram", ms: r.toolgramMs }] : []),
    ...(Number.isFinite(r.xgrammarMs) ? [{ tools: r.tools, engine: "XGrammar", ms: r.xgrammarMs }] : []),
  ]);
  const failed = data.scaling.filter((r) => r.toolgramFailure).map((r) => r.tools);
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: "Time to first mask by number of tools",
      subtitle: failed.length
        ? `toolgram builds no matcher at ${failed.join(", ")} tools (${data.scaling.find((r) => r.toolgramFailure)?.toolgramFailure})`
        : "compile + matcher + first mask",
    },
    data: { values: rows },
    width: 420,
    height: 240,
    mark: { type: "line", point: true },
    encoding: {
      x: { field: "tools", type: "quantitative", scale: { type: "log" }, title: "tools in the set" },
      y: { field: "ms", type: "quantitative", scale: { type: "log" }, title: "ms" },
      color: { field: "engine", type: "nominal", scale: COLORS, title: null },
    },
  };
}

function decoding(data: PlotData): TopLevelSpec {
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: "Tokens per second by decoding path",
      subtitle: "tiny Qwen3 model in llama.cpp, one thread; longer is faster",
    },
    data: { values: data.decoding ?? [] },
    width: 420,
    height: { step: 22 },
    mark: "bar",
    encoding: {
      y: { field: "label", type: "nominal", sort: null, title: null },
      x: { field: "tokensPerSecond", type: "quantitative", title: "tokens/s" },
    },
  };
}

function sampler(data: PlotData): TopLevelSpec {
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: "llama.cpp grammar sampler: cost per token by grammar",
      subtitle: "weather tools, same calls teacher-forced; shorter is cheaper",
    },
    data: { values: data.sampler ?? [] },
    width: 420,
    height: { step: 22 },
    mark: "bar",
    encoding: {
      y: { field: "label", type: "nominal", sort: null, title: null },
      x: { field: "overheadMs", type: "quantitative", title: "process CPU ms per token over an unconstrained step" },
    },
  };
}

/** Writes the charts as SVG files into `dir`; returns their file names. */
export async function renderPlots(data: PlotData, dir: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const charts: [string, TopLevelSpec | undefined][] = [
    ["mask-times.svg", maskDistribution(data)],
    ["first-mask.svg", firstMask(data)],
    ["scaling-tools.svg", scaling(data)],
    ["decoding-tokens-per-second.svg", data.decoding?.length ? decoding(data) : undefined],
    ["llama-grammar-sampler.svg", data.sampler?.length ? sampler(data) : undefined],
  ];
  const written: string[] = [];
  for (const [file, spec] of charts) {
    if (!spec) continue;
    writeFileSync(join(dir, file), await toSvg(spec));
    written.push(file);
  }
  return written;
}
