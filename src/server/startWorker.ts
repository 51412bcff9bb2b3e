import { Worker } from "node:worker_threads";

/**
 * A worker thread running the module at `module` (a built `.js` URL): that file, or, run from source (tests, `tsx`),
 * the `.ts` beside it under tsx's loader, registered inside the worker (Node 20 ignores `--import` in a worker's
 * execArgv).
 */
export function startWorker(module: URL, workerData?: unknown): Worker {
  const options = workerData === undefined ? {} : { workerData };
  if (!import.meta.url.endsWith(".ts")) return new Worker(module, options);
  const source = module.href.replace(/\.js$/, ".ts");
  const boot = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(boot, { eval: true, ...options });
}
