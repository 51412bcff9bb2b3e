import { Worker } from "node:worker_threads";

/**
 * A worker thread running the module `name` next to this file: the built `.js`, or, run from source (tests, `tsx`),
 * the `.ts` under tsx's loader, registered inside the worker (Node 20 ignores `--import` in a worker's execArgv).
 */
export function startWorker(name: string, workerData?: unknown): Worker {
  const options = workerData === undefined ? {} : { workerData };
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL(`./${name}.js`, import.meta.url), options);
  const source = new URL(`./${name}.ts`, import.meta.url).href;
  const boot = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(boot, { eval: true, ...options });
}
