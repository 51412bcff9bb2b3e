/**
 * One command for the balanced layout: N llama-servers, a `toolgram serve --upstream` in front of each, and nginx
 * (deploy/nginx/toolgram-cluster.conf.template) balancing the toolgram instances round robin. Everything stops on
 * SIGINT/SIGTERM.
 *
 *   npm run serve:cluster                                  2 instances on the tiny Qwen3 model, nginx on a free port
 *   npm run serve:cluster -- --instances 3 --port 8080 --model model.gguf [--threads 2] [--parallel 2] [--verbose]
 */
import { parseArgs } from "node:util";
import { buildTinyModel, tinyModelPath } from "../src/gguf/buildTinyModel.js";
import { startCluster } from "./cluster/startCluster.js";

function integer(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new Error(`--${name} needs an integer in ${min}..${max}, got ${value}`);
  return Number(value);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      instances: { type: "string" },
      port: { type: "string" },
      host: { type: "string" },
      model: { type: "string" },
      threads: { type: "string" },
      parallel: { type: "string" },
      verbose: { type: "boolean" },
    },
  });
  const model = values.model ?? (await buildTinyModel({ seed: 0, outPath: tinyModelPath(0) })).path;
  const port = integer(values.port, "port", 1, 65535);
  const threads = integer(values.threads, "threads", 1, 256);
  const parallel = integer(values.parallel, "parallel", 1, 64);
  const cluster = await startCluster({
    model,
    instances: integer(values.instances, "instances", 1, 32) ?? 2,
    ...(port === undefined ? {} : { port }),
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(threads === undefined ? {} : { threads }),
    ...(parallel === undefined ? {} : { parallel }),
    ...(values.verbose === true ? { onLog: (line: string) => process.stderr.write(`${line}\n`) } : {}),
  });
  for (const i of cluster.instances) process.stdout.write(`instance ${i.index}: ${i.url} -> ${i.llama.url}\n`);
  process.stdout.write(`listening on ${cluster.url}\n`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await cluster.stop();
  return 0;
}

process.exitCode = await main();
