/**
 * `npm run bench:serve:gap`: the largest gap between two tokens of a running stream of `toolgram serve` (the tiny
 * model in process, `--parallel 2`) while another client sends the GitHub MCP server's 117 tools and then issue 25's
 * deep recursive schema, in three settings: grammars compiled and masks computed on the event loop (`event-loop`),
 * compiled on the compile worker (`compile-worker`), and compiled there with masks on the mask workers too
 * (`mask-workers`, the default of `toolgram serve`).
 * Fresh server per run; each setting runs `RUNS` times (env TOOLGRAM_GAP_RUNS, default 3) and prints every run.
 * Env TOOLGRAM_GAP_SETTINGS (comma-separated) picks settings; TOOLGRAM_GAP_PROFILE=1 prints what held the event loop in
 * each stall over 20 ms (bench/serve/gapProfile.ts).
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { buildTinyModel, tinyModelPath } from "../src/gguf/buildTinyModel.js";
import { startServer } from "../src/server/startServer.js";
import { streamWhileOthersSend } from "./serve/gapLoad.js";
import { GapProfile } from "./serve/gapProfile.js";

const RUNS = Number(process.env.TOOLGRAM_GAP_RUNS ?? 3);
const MAX_TOKENS = 1500;
const SETTINGS = (process.env.TOOLGRAM_GAP_SETTINGS ?? "event-loop,compile-worker,mask-workers").split(",");
const SERVER_OPTIONS = {
  "event-loop": { compileOn: "event-loop", masksOn: "event-loop" },
  "compile-worker": { compileOn: "worker", masksOn: "event-loop" },
  "mask-workers": { compileOn: "worker", masksOn: "worker" },
} as const;
const PROFILE = process.env.TOOLGRAM_GAP_PROFILE === "1";

const model = (await buildTinyModel({ seed: 0, outPath: tinyModelPath(0) })).path;
for (const setting of ["event-loop", "compile-worker", "mask-workers"] as const) {
  if (!SETTINGS.includes(setting)) continue;
  for (let run = 0; run < RUNS; run++) {
    const logs: string[] = [];
    const server = await startServer({
      model,
      port: 0,
      parallel: 2,
      ...SERVER_OPTIONS[setting],
      log: (l) => logs.push(l),
    });
    const profile = PROFILE ? new GapProfile() : undefined;
    profile?.install(server);
    try {
      // the event loop's own longest stall, to tell a blocked loop from a starved CPU (a gap with a free loop)
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      const r = await streamWhileOthersSend(server.url, MAX_TOKENS);
      loop.disable();
      const others = r.others.map((o) => `${o.name} ${o.status} (gap ${o.maxGapMs.toFixed(0)} ms)`).join(", ");
      console.log(
        `${setting.padEnd(14)} run ${run + 1}: max gap ${r.maxGapMs.toFixed(1)} ms (event loop stalled ${(loop.max / 1e6).toFixed(0)} ms), median ${r.medianGapMs.toFixed(2)} ms over ${r.chunks} chunks${r.finished ? "" : " (unfinished)"}; others: ${others}`,
      );
      for (const l of logs) console.log(`           log: ${l}`);
      for (const l of profile?.report() ?? []) console.log(`           profile: ${l}`);
    } finally {
      await server.close();
    }
  }
}
