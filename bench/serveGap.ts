/**
 * `npm run bench:serve:gap`: the largest gap between two tokens of a running stream of `toolgram serve` (the tiny
 * model in process, `--parallel 2`) while another client sends the GitHub MCP server's 117 tools and then issue 25's
 * deep recursive schema, with grammars compiled on the event loop (before) and on the compile worker (after).
 * Fresh server per run; each setting runs `RUNS` times (env TOOLGRAM_GAP_RUNS, default 3) and prints every run.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { buildTinyModel, tinyModelPath } from "../src/gguf/buildTinyModel.js";
import { startServer } from "../src/server/startServer.js";
import { streamWhileOthersSend } from "./serve/gapLoad.js";

const RUNS = Number(process.env.TOOLGRAM_GAP_RUNS ?? 3);
const MAX_TOKENS = 1500;

const model = (await buildTinyModel({ seed: 0, outPath: tinyModelPath(0) })).path;
for (const compileOn of ["event-loop", "worker"] as const) {
  for (let run = 0; run < RUNS; run++) {
    const logs: string[] = [];
    const server = await startServer({ model, port: 0, parallel: 2, compileOn, log: (l) => logs.push(l) });
    try {
      // the event loop's own longest stall, to tell a blocked loop from a starved CPU (a gap with a free loop)
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      const r = await streamWhileOthersSend(server.url, MAX_TOKENS);
      loop.disable();
      const others = r.others.map((o) => `${o.name} ${o.status} (gap ${o.maxGapMs.toFixed(0)} ms)`).join(", ");
      console.log(
        `${compileOn.padEnd(10)} run ${run + 1}: max gap ${r.maxGapMs.toFixed(1)} ms (event loop stalled ${(loop.max / 1e6).toFixed(0)} ms), median ${r.medianGapMs.toFixed(2)} ms over ${r.chunks} chunks${r.finished ? "" : " (unfinished)"}; others: ${others}`,
      );
      for (const l of logs) console.log(`           log: ${l}`);
    } finally {
      await server.close();
    }
  }
}
