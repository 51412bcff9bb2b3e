/**
 * `tsx bench/maskWorkerCost.ts`: what a mask computed on the mask worker costs the event loop, against the same
 * mask computed in place. Seeded walks over a small weather tool, the GitHub MCP server's 117 tools and issue 25's deep recursive schema (Qwen3
 * vocabulary, qwen3 format): per token, the event loop's wall time from asking for the mask to having accepted the
 * sampled token, and how long the event loop itself was busy (blocked) in that time. Env TOOLGRAM_WORKER_WALKS (default
 * 20) walks of up to 120 tokens per tool set, the first walk's cold masks included.
 */
import { compileTools } from "../src/compile.js";
import { MaskWorker } from "../src/server/MaskWorker.js";
import { qwen3 } from "../test/support/qwen3.js";
import { weatherTool } from "../test/support/server/maskWorkerWalk.js";
import { deepAnyOfTool } from "./serve/gapLoad.js";
import { serveToolSets } from "./serve/toolSets.js";

const WALKS = Number(process.env.TOOLGRAM_WORKER_WALKS ?? 20);
const { vocab } = qwen3();
const github = serveToolSets().find((s) => s.name.startsWith("GitHub"));
if (github === undefined) throw new Error("the GitHub MCP tool set is missing");
const sets = [
  { name: "get_weather", tools: [weatherTool] },
  { name: "117 GitHub MCP tools", tools: github.tools },
  { name: "deep recursive schema", tools: [deepAnyOfTool()] },
];

function pick(bits: Uint32Array, r: number): number {
  const ids: number[] = [];
  for (let w = 0; w < bits.length; w++)
    for (let x = bits[w] as number; x !== 0; x &= x - 1) ids.push(w * 32 + 31 - Math.clz32(x & -x));
  const ordinary = ids.filter((id) => !vocab.eosTokenIds.includes(id));
  return ordinary.length === 0 ? -1 : (ordinary[r % ordinary.length] as number);
}

const pct = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? 0;
};
const fmt = (xs: number[]): string =>
  `p50 ${pct(xs, 0.5).toFixed(3)} p99 ${pct(xs, 0.99).toFixed(2)} max ${pct(xs, 1).toFixed(1)} ms`;

for (const set of sets) {
  for (const where of ["in place", "mask worker"] as const) {
    const g = compileTools(set.tools, { format: "qwen3", toolChoice: "required", limits: { maxCompileMs: Infinity } });
    const worker = where === "mask worker" ? new MaskWorker(vocab) : undefined;
    const wall: number[] = [];
    const blocked: number[] = [];
    const bits = new Uint32Array(Math.ceil(vocab.size / 32));
    for (let walk = 0; walk < WALKS; walk++) {
      const m = worker === undefined ? g.createMatcher(vocab) : await worker.matcher(g, { jumpForward: false });
      let rng = walk + 1;
      for (let step = 0; step < 120; step++) {
        const t = performance.now();
        let busy = 0;
        if ("prepareMask" in m) {
          await m.prepareMask(undefined);
          const b = performance.now();
          m.fillNextTokenBitmask(bits);
          busy += performance.now() - b;
        } else m.fillNextTokenBitmask(bits);
        rng = (rng * 1103515245 + 12345) & 0x7fffffff;
        const token = pick(bits, rng);
        if (token < 0) break;
        const a = performance.now();
        m.acceptToken(token);
        const end = performance.now();
        wall.push(end - t);
        blocked.push("prepareMask" in m ? busy + (end - a) : end - t);
      }
      if ("close" in m) m.close();
    }
    await worker?.close();
    console.log(
      `${set.name.padEnd(22)} ${where.padEnd(12)} ${wall.length} tokens: wall ${fmt(wall)}; event loop blocked ${fmt(blocked)}`,
    );
  }
}
