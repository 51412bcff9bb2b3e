import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type LlamaServerHandle, startLlamaServer } from "../../src/llama-cpp/index.js";

/** The three endpoints compared, in the order of the tables. */
export const ENDPOINTS = {
  A: "llama-server --jinja (its own tool calling)",
  B: "toolgram serve --upstream (same llama-server)",
  C: "toolgram serve --model (in process)",
} as const;
export type EndpointId = keyof typeof ENDPOINTS;

/** A started endpoint (its OpenAI base URL), or why it is not there. */
export type Endpoint =
  | { readonly id: EndpointId; readonly baseURL: string; readonly refused?: undefined }
  | { readonly id: EndpointId; readonly refused: string };

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Starts `toolgram serve ARGS` from the sources (as `npm run serve:tiny` does) and waits for its "listening on" line. */
async function startToolgramServe(
  args: string[],
): Promise<{ url: string; child: ChildProcess } | { refused: string; child?: undefined }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "src/cli/main.ts"), "serve", ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  return new Promise((resolve) => {
    const onData = (chunk: Buffer): void => {
      log += chunk.toString("utf8");
      const m = /listening on (http:\/\/\S+)/.exec(log);
      if (m) {
        child.stdout?.off("data", onData);
        child.stderr?.off("data", onData);
        // Keep draining, so a chatty server never blocks on a full pipe.
        child.stdout?.resume();
        child.stderr?.resume();
        resolve({ url: m[1], child });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code, signal) => {
      const last = log.trim().split("\n").slice(-3).join(" ").slice(0, 400);
      resolve({ refused: `exited at startup (${code ?? signal}): ${last}` });
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** The endpoints for one model, and a function that stops every process started for them. */
export interface EndpointSet {
  readonly endpoints: Endpoint[];
  stop(): Promise<void>;
}

/**
 * The compile budget of B and C: the GitHub MCP set (117 tools) passed serve's 2 s default on a loaded two-core
 * machine, which measured the machine's load, not the endpoints.
 */
const COMPILE_BUDGET = ["--max-compile-ms", "60000"];

/**
 * Starts llama-server on the model with `--jinja` (A), `toolgram serve --upstream` in front of it (B) and
 * `toolgram serve --model` (C). llama-server gets two slots, so that A's and B's prompts each keep their own cached
 * prefix (their renderings of the same tools may differ in a byte, and one slot would re-read the whole prompt each
 * time the two alternate). Without a llama-server binary, A and B are reported as not started.
 */
export async function startEndpoints(options: {
  model: string;
  llamaServer: string | undefined;
  contextSize: number;
}): Promise<EndpointSet> {
  const endpoints: Endpoint[] = [];
  const children: ChildProcess[] = [];
  let llama: LlamaServerHandle | undefined;
  if (options.llamaServer === undefined) {
    const refused = "llama-server is not built (npm run llama-server)";
    endpoints.push({ id: "A", refused }, { id: "B", refused });
  } else {
    llama = await startLlamaServer({
      binary: options.llamaServer,
      model: options.model,
      contextSize: 2 * options.contextSize,
      extraArgs: ["-np", "2"],
    });
    endpoints.push({ id: "A", baseURL: `${llama.url}/v1` });
    const upstream = await startToolgramServe(["--upstream", llama.url, "--port", "0", ...COMPILE_BUDGET]);
    if (upstream.child) children.push(upstream.child);
    endpoints.push(
      upstream.child ? { id: "B", baseURL: `${upstream.url}/v1` } : { id: "B", refused: upstream.refused },
    );
  }
  const inProcess = await startToolgramServe([
    "--model",
    options.model,
    "--port",
    "0",
    "--ctx-size",
    String(options.contextSize),
    ...COMPILE_BUDGET,
  ]);
  if (inProcess.child) children.push(inProcess.child);
  endpoints.push(
    inProcess.child ? { id: "C", baseURL: `${inProcess.url}/v1` } : { id: "C", refused: inProcess.refused },
  );
  return {
    endpoints,
    async stop() {
      await Promise.all(children.map(stopChild));
      await llama?.stop();
    },
  };
}
