import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findLlamaServer, startLlamaServer, type LlamaServerHandle } from "../../src/llama-cpp/index.js";
import { freePort } from "../../src/llama-cpp/llamaServerClient.js";
import { nginxConfig } from "./nginxConfig.js";

const REPO = join(import.meta.dirname, "..", "..");

/** Options of {@link startCluster}. */
export interface ClusterOptions {
  /** GGUF model every llama-server loads. */
  readonly model: string;
  /** `toolgram serve --upstream` instances, each in front of its own llama-server. @defaultValue 2 */
  readonly instances?: number;
  /** Port nginx listens on, on `host`. @defaultValue a free port */
  readonly port?: number;
  /** Interface nginx binds. @defaultValue 127.0.0.1 */
  readonly host?: string;
  /** llama-server executable. @defaultValue the one `npm run llama-server` built (or $TOOLGRAM_LLAMA_SERVER) */
  readonly llamaServer?: string;
  /** CPU threads of each llama-server. @defaultValue 1 */
  readonly threads?: number;
  /** Generations at once per instance (toolgram's --parallel and llama-server's -np). @defaultValue 1 */
  readonly parallel?: number;
  /**
   * The URL an instance fronts, given its llama-server's: by default that URL itself. Tests put a recording proxy
   * there to see the exact prompts each llama-server receives.
   */
  readonly upstreamFor?: (index: number, llamaUrl: string) => Promise<string>;
  /** Receives every line the processes print, prefixed with their name (default: kept for startup errors only). */
  readonly onLog?: (line: string) => void;
}

/** One `toolgram serve --upstream` process and the llama-server behind it. */
export interface ClusterInstance {
  readonly index: number;
  /** The instance's own URL (what nginx balances). */
  readonly url: string;
  /** `127.0.0.1:port`, as nginx's `$upstream_addr` names it. */
  readonly address: string;
  readonly llama: LlamaServerHandle;
  /** Ends the toolgram process with the signal (SIGKILL: a crash) and resolves once it has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** A running cluster: nginx's URL, the instances, nginx's access log, and `stop()`. */
export interface Cluster {
  /** nginx's URL, e.g. http://127.0.0.1:8080 (clients use `${url}/v1`). */
  readonly url: string;
  readonly instances: readonly ClusterInstance[];
  /** nginx's access log so far: one line per request, with `upstream=` and `upstream_status=` fields. */
  accessLog(): string;
  /** Stops nginx, the toolgram instances and the llama-servers, and removes nginx's folder. */
  stop(): Promise<void>;
}

/** nginx's executable: $TOOLGRAM_NGINX, Debian's /usr/sbin/nginx, or `nginx` on PATH; undefined when none. */
export function findNginx(): string | undefined {
  const fromEnv = process.env.TOOLGRAM_NGINX;
  if (fromEnv !== undefined && fromEnv !== "") return existsSync(fromEnv) ? fromEnv : undefined;
  if (existsSync("/usr/sbin/nginx")) return "/usr/sbin/nginx";
  try {
    return execFileSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

async function terminate(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited(child);
  clearTimeout(timer);
}

/** Collects a child's output lines; the last ones explain a failed start. */
function captureLines(child: ChildProcess, name: string, onLog?: (line: string) => void): string[] {
  const lines: string[] = [];
  const take = (chunk: Buffer): void => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (line === "") continue;
      onLog?.(`[${name}] ${line}`);
      lines.push(line);
      if (lines.length > 100) lines.shift();
    }
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  return lines;
}

/** `toolgram serve --upstream URL --port 0`, from this repository's source; resolves with the URL it prints. */
async function startInstance(
  upstream: string,
  parallel: number,
  name: string,
  onLog?: (line: string) => void,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      join(REPO, "src", "cli", "main.ts"),
      "serve",
      "--upstream",
      upstream,
      "--port",
      "0",
      "--parallel",
      String(parallel),
    ],
    { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] },
  );
  const lines = captureLines(child, name, onLog);
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      const m = /listening on (http:\/\/\S+)/.exec(chunk.toString("utf8"));
      if (m !== null) {
        child.stdout?.off("data", onData);
        resolve(m[1]);
      }
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code, signal) =>
      reject(new Error(`${name} exited (${code ?? signal}) before listening:\n${lines.join("\n")}`)),
    );
    child.once("error", reject);
  });
  return { child, url };
}

/** When nginx starts as root its workers need an unprivileged user: nobody, in nobody's own group. */
function workerUser(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const group = execFileSync("id", ["-gn", "nobody"], { encoding: "utf8" }).trim();
  return `nobody ${group}`;
}

async function startNginx(
  binary: string,
  prefix: string,
  host: string,
  port: number | undefined,
  instances: readonly string[],
  onLog?: (line: string) => void,
): Promise<{ child: ChildProcess; url: string }> {
  // A free port can be taken between the question and nginx's bind: a few tries when none was asked for.
  for (let attempt = 0; ; attempt++) {
    const listenPort = port ?? (await freePort());
    const listen = `${host.includes(":") ? `[${host}]` : host}:${listenPort}`;
    const user = workerUser();
    writeFileSync(join(prefix, "nginx.conf"), nginxConfig({ prefix, listen, instances, workerUser: user }));
    const child = spawn(binary, ["-p", prefix, "-c", join(prefix, "nginx.conf"), "-e", join(prefix, "error.log")], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const lines = captureLines(child, "nginx", onLog);
    const url = `http://${listen}`;
    let failed = false;
    child.once("exit", () => {
      failed = true;
    });
    while (!failed) {
      try {
        const r = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5000) });
        await r.arrayBuffer();
        if (r.headers.has("x-toolgram-upstream")) return { child, url };
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const log = existsSync(join(prefix, "error.log")) ? readFileSync(join(prefix, "error.log"), "utf8") : "";
    if (port === undefined && attempt < 3 && /in use/.test(log)) continue;
    throw new Error(`nginx did not start:\n${lines.join("\n")}\n${log}`);
  }
}

/**
 * Starts N llama-servers on the model, a `toolgram serve --upstream` in front of each, and nginx balancing the
 * instances round robin; resolves once nginx answers. Whatever started is stopped if a later part fails.
 */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const count = options.instances ?? 2;
  if (!Number.isInteger(count) || count < 1 || count > 32)
    throw new Error(`instances must be an integer in 1..32, got ${count}`);
  const parallel = options.parallel ?? 1;
  const nginx = findNginx();
  if (nginx === undefined) throw new Error("nginx is not installed (Debian: apt-get install nginx)");
  const binary = options.llamaServer ?? (await findLlamaServer());
  if (binary === undefined) throw new Error("llama-server is not built: run `npm run llama-server` first");

  const llamas: LlamaServerHandle[] = [];
  const children: ChildProcess[] = [];
  let nginxChild: ChildProcess | undefined;
  const prefix = mkdtempSync(join(tmpdir(), "toolgram-cluster-"));
  chmodSync(prefix, 0o755);
  const stop = async (): Promise<void> => {
    if (nginxChild !== undefined) await terminate(nginxChild);
    await Promise.all(children.map((c) => terminate(c)));
    await Promise.all(llamas.map((l) => l.stop()));
    rmSync(prefix, { recursive: true, force: true });
  };
  try {
    const instances: ClusterInstance[] = [];
    for (let i = 0; i < count; i++) {
      const llama = await startLlamaServer({
        binary,
        model: options.model,
        threads: options.threads ?? 1,
        extraArgs: ["-np", String(parallel)],
        ...(options.onLog === undefined ? {} : { onLog: (l: string) => options.onLog?.(`[llama-server ${i}] ${l}`) }),
      });
      llamas.push(llama);
      const upstream = options.upstreamFor === undefined ? llama.url : await options.upstreamFor(i, llama.url);
      const { child, url } = await startInstance(upstream, parallel, `toolgram ${i}`, options.onLog);
      children.push(child);
      instances.push({
        index: i,
        url,
        address: new URL(url).host,
        llama,
        kill: (signal: NodeJS.Signals = "SIGKILL") => terminate(child, signal),
      });
    }
    const started = await startNginx(
      nginx,
      prefix,
      options.host ?? "127.0.0.1",
      options.port,
      instances.map((i) => i.address),
      options.onLog,
    );
    nginxChild = started.child;
    return {
      url: started.url,
      instances,
      accessLog: () => readFileSync(join(prefix, "access.log"), "utf8"),
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
